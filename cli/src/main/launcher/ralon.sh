#!/bin/sh
# Ralon launcher: this shell stub is followed by the Ralon jar (a zip file, read from its end),
# so the whole file is both a script and a jar. It needs only `java` on PATH (or RALON_JAVA / JAVA_HOME).
# exec keeps the pid: `ralon run` later execve()s the command in this same process.
# -XX:-MaxFDLimit: HotSpot otherwise raises RLIMIT_NOFILE's soft limit, which the command would inherit.
# SerialGC and C1 only: a short-lived CLI wants fast start, not peak throughput.
if [ -n "$RALON_JAVA" ]; then j="$RALON_JAVA"; elif [ -n "$JAVA_HOME" ]; then j="$JAVA_HOME/bin/java"; else j=java; fi
# The soft RLIMIT_NOFILE the user had, restored before `ralon run` execs the command (see Exec).
RALON_ORIG_NOFILE=$(ulimit -Sn); export RALON_ORIG_NOFILE
# --enable-native-access=ALL-UNNAMED: JNA calls System.load; from Java 24 that prints four "WARNING: A restricted
# method..." lines on stderr (JEP 472) on every run that loads it, breaking one-line errors. Java 17 accepts the flag.
exec "$j" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-MaxFDLimit -Xshare:auto -Xss1m $RALON_JAVA_OPTS -cp "$0" dev.ralon.cli.Main "$@"
