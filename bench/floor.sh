#!/bin/sh
# The floor of a landlock start on JNA: times, side by side in one hyperfine group per JDK, a Java hello-world, the
# least a JNA-based Landlock start does (bench/floor/Floor.java: JNA's initialisation, LibC's binding, the ABI probe,
# execve of /bin/true; with its own class-data-sharing archive or AOT cache, made as the launcher makes Ralon's) and
# `ralon run --backend landlock -- true` on bench/run.sh's small project, and on a JDK 22+ the same floor on the JDK's
# own foreign-function API (bench/floor/FloorFfm.java: the linker, two downcall handles, the probe, execve; no native
# library), the floor an FFM native layer would have. What the floor costs above the hello-world is spent before Ralon
# reads a policy; what `run` costs above the floor is Ralon's own work (docs/performance.md).
#
#   bench/floor.sh [--runs N] [--jdk JAVA_HOME]...
#
# Needs hyperfine (Debian: apt-get install -y hyperfine) and a kernel with Landlock. Builds cli/target/ralon if missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
runs=20
jdks=
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift ;;
    --jdk) jdks="${jdks:-} $2"; shift ;;
    *) echo "usage: bench/floor.sh [--runs N] [--jdk JAVA_HOME]..." >&2; exit 2 ;;
  esac
  shift
done
if ! command -v hyperfine >/dev/null 2>&1; then
  echo "bench/floor.sh: hyperfine is not installed; on Debian/Ubuntu: apt-get install -y hyperfine" >&2
  exit 2
fi
ralon="$top/cli/target/ralon"
[ -x "$ralon" ] || (cd "$top" && ./mvnw -B -q install -DskipTests -pl cli -am)
[ -n "$jdks" ] || jdks=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
work=$(mktemp -d "${TMPDIR:-/tmp}/ralon-floor.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/small/src" "$work/small/secrets" "$work/hello"
printf 'version: 1\nprotect:\n  - "**/*.json"\n  - pom.xml\n  - secrets/\n' > "$work/small/agent.lock"
: > "$work/small/pom.xml"; : > "$work/small/src/a.java"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' \
  > "$work/hello/Hello.java"
# the launcher's options for every JVM it starts (cli/src/main/launcher/ralon.sh: ralon_vm, ralon_jvm)
vm="-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-MaxFDLimit -XX:-UsePerfData -Xss1m -XX:+DisableAttachMechanism"
for jdk in $jdks; do
  d="$work/$(basename "$jdk")"; mkdir -p "$d/jna"
  "$jdk/bin/javac" -d "$work/hello" "$work/hello/Hello.java"
  "$jdk/bin/javac" -cp "$ralon" -d "$d" "$here/floor/Floor.java"
  (cd "$d" && "$jdk/bin/jar" cf floor.jar Floor.class)
  "$jdk/bin/java" -cp "$ralon" dev.ralon.cli.Train "$d/jna/lib" >/dev/null # JNA's library, as the launcher copies it
  cp=$ralon:$d/floor.jar
  # The FFM twin, where javac knows java.lang.foreign (final in JDK 22); its own cache or archive, made the same way.
  ffm=
  if "$jdk/bin/javac" -d "$d/ffm" "$here/floor/FloorFfm.java" 2>/dev/null; then
    (cd "$d/ffm" && "$jdk/bin/jar" cf ../ffm.jar FloorFfm.class) # a jar: archives and caches refuse a directory
    fvm="$vm --enable-native-access=ALL-UNNAMED -cp $d/ffm.jar"
    if "$jdk/bin/java" $fvm -XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining -XX:AOTCacheOutput="$d/ffm.aot" \
         FloorFfm train >/dev/null 2>&1 && [ -f "$d/ffm.aot" ]; then
      ffm="$jdk/bin/java $fvm -XX:AOTCache=$d/ffm.aot FloorFfm"
    else
      "$jdk/bin/java" $fvm -Xshare:off -XX:DumpLoadedClassList="$d/ffm.lst" FloorFfm train >/dev/null
      "$jdk/bin/java" -Xshare:dump -XX:SharedClassListFile="$d/ffm.lst" -XX:SharedArchiveFile="$d/ffm.jsa" \
        --enable-native-access=ALL-UNNAMED -cp "$d/ffm.jar" >/dev/null 2>&1
      ffm="$jdk/bin/java $fvm -Xshare:auto -XX:SharedArchiveFile=$d/ffm.jsa FloorFfm"
    fi
  fi
  jna="-Djna.boot.library.path=$d/jna/lib -Djna.platform.library.path=/lib:/usr/lib --enable-native-access=ALL-UNNAMED"
  if "$jdk/bin/java" $vm -XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining -XX:AOTCacheOutput="$d/floor.aot" \
       $jna -cp "$cp" Floor train >/dev/null 2>&1 && [ -f "$d/floor.aot" ]; then
    share="-XX:AOTCache=$d/floor.aot"
  else
    "$jdk/bin/java" $vm -Xshare:off -XX:DumpLoadedClassList="$d/floor.lst" $jna -cp "$cp" Floor train >/dev/null
    "$jdk/bin/java" -Xshare:dump -XX:SharedClassListFile="$d/floor.lst" -XX:SharedArchiveFile="$d/floor.jsa" \
      $jna -cp "$cp" >/dev/null 2>&1
    share="-Xshare:auto -XX:SharedArchiveFile=$d/floor.jsa"
  fi
  # Ralon's own archive or cache for this JDK, made before timing (a first start builds it in the background)
  (cd "$work/small" && JAVA_HOME=$jdk "$ralon" check pom.xml >/dev/null || true)
  i=0; while [ $i -lt 120 ] && [ -z "$(find "$top/cli/target/.ralon-cds" \( -path "*$jdk/bin/java.jsa" -o -path "*$jdk/bin/java.aot" \) -newer "$ralon" 2>/dev/null)" ]; do
    sleep 1; i=$((i + 1)); done
  echo "JDK at $jdk:" >&2
  (cd "$work/small" && JAVA_HOME=$jdk hyperfine -N --warmup 3 --runs "$runs" --export-csv "$d/g.csv" \
     "$jdk/bin/java -cp $work/hello Hello" "$jdk/bin/java $vm $share $jna -cp $cp Floor" \
     "$ralon run --backend landlock -- true" ${ffm:+"$ffm"} >&2)
  awk -F, -v jdk="$jdk" 'NR == 2 { h = $2 } NR > 1 { n = NR == 2 ? "hello-world" : NR == 3 ? "floor (JNA, probe, execve)" : NR == 4 ? "ralon run --backend landlock -- true" : "floor (FFM, probe, execve)"
      printf "%s | %s | %.1f ms | %.2f x | CPU %.1f ms\n", jdk, n, $2 * 1000, $2 / h, ($5 + $6) * 1000 }' "$d/g.csv"
done
