#!/bin/sh
# Ralon launcher: this shell stub is followed by the Ralon jar (a zip file, read from its end),
# so the whole file is both a script and a jar. It needs only `java` on PATH (or RALON_JAVA / JAVA_HOME).
# exec keeps the pid: `ralon run` later execve()s the command in this same process.
# -XX:-MaxFDLimit: HotSpot otherwise raises RLIMIT_NOFILE's soft limit, which the command would inherit.
# SerialGC and C1 only: a short-lived CLI wants fast start, not peak throughput.
# jna.platform.library.path: otherwise JNA forks `/sbin/ldconfig -p` at every start to build a search path it does not
# need (only libc is used). --enable-native-access: JDK 22+ warns about JNA's native access without it; JDK 17 accepts
# the flag.
if [ -n "$RALON_JAVA" ]; then j="$RALON_JAVA"; elif [ -n "$JAVA_HOME" ]; then j="$JAVA_HOME/bin/java"; else j=java; fi
# The soft RLIMIT_NOFILE the user had, restored before `ralon run` execs the command (see Exec).
RALON_ORIG_NOFILE=$(ulimit -Sn); export RALON_ORIG_NOFILE
exec "$j" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-MaxFDLimit -Xshare:auto -Xss1m -Djna.platform.library.path=/lib:/usr/lib --enable-native-access=ALL-UNNAMED $RALON_JAVA_OPTS -cp "$0" dev.ralon.cli.Main "$@"
