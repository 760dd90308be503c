#!/bin/sh
# Ralon launcher: this shell stub is followed by the Ralon jar (a zip file, read from its end),
# so the whole file is both a script and a jar. It needs only `java` on PATH (or RALON_JAVA / JAVA_HOME).
# exec keeps the pid: `ralon run` later execve()s the command in this same process.
# -XX:-MaxFDLimit: HotSpot otherwise raises RLIMIT_NOFILE's soft limit, which the command would inherit.
# SerialGC and C1 only: a short-lived CLI wants fast start, not peak throughput.
# -XX:-UsePerfData: no hsperfdata file (/tmp/hsperfdata_<user>/<pid>, 32 KB, mapped at start) for jps/jstat, which
# nobody attaches to a CLI; under `ralon run` that file outlived the JVM (execve: no exit handler; checked: it stays
# while the command runs).
# jna.platform.library.path: otherwise JNA forks `/sbin/ldconfig -p` at every start to build a search path it does not
# need (only libc is used). --enable-native-access: JDK 22+ warns about JNA's native access without it; JDK 17 accepts
# the flag.
# -Xlog:disable -Xlog:all=warning:stderr: JVM warnings go to stderr, never into output a script reads (stdout);
# -Xlog:cds*=off:stderr: nor does the JVM's report of an archive it could not use (JDK 25 prints it at error level):
# the archive is an optimisation, and the run without it is complete (the same options must be given when the archive
# is dumped: JDK 25 compares --enable-native-access and reports the difference).
# set -f: no pathname expansion of the unquoted words below (-Xlog:cds*=off, $cds, $PATH's entries): a file named like
# an option in the working directory must not replace one.
set -f
self=$0
case $self in ./*) self=${self#./} ;; esac
case $self in /*) ;; *) self=$PWD/$self ;; esac
# A release (dist/, docs/publishing.md): this file is bin/ralon of a tree that holds lib/ralon.release, runtime/ (a
# jlinked Java runtime), lib/ralon.jsa (the class-data archive made at build time for that runtime and this file) and
# lib/jna/ (JNA's native library, unpacked at build time): the runtime is used, whatever JAVA_HOME or PATH say (a
# project's JAVA_HOME may be a JDK 11), unless RALON_JAVA names another java. The package managers start it through a
# link (/usr/bin/ralon, npm's bin/ralon), resolved here: one fork, only for a link. -cp names the resolved file.
ralon_rel=; ralon_cp=$self
if [ -z "$RALON_JAVA" ]; then
  ralon_real=$self
  if [ -L "$self" ]; then ralon_real=$(readlink -f -- "$self" 2>/dev/null) || ralon_real=; fi
  case $ralon_real in
    /*/*) if [ -f "${ralon_real%/*/*}/lib/ralon.release" ]; then ralon_rel=${ralon_real%/*/*}; ralon_cp=$ralon_real; fi ;;
  esac
fi
if [ -n "$RALON_JAVA" ]; then j="$RALON_JAVA"; jfrom="RALON_JAVA=$RALON_JAVA"
elif [ -n "$ralon_rel" ]; then j="$ralon_rel/runtime/bin/java"; jfrom="the release's runtime"
elif [ -n "$JAVA_HOME" ]; then j="$JAVA_HOME/bin/java"; jfrom="JAVA_HOME=$JAVA_HOME"
else j=java; jfrom="java on PATH"; fi
# Hook mode (`ralon hook ...`, also after --policy FILE): an agent calls this before each write, and reads any exit
# status but its "deny" code (2 for Claude Code, Codex and Gemini CLI) as "go ahead". So in hook mode nothing that goes
# wrong before Ralon answers may end in another status: no java, a JVM that cannot start (it exits 1 on a bad option,
# or dies by a signal on OOM or a crash) or a "java" that is not one. The JVM runs as a child, and Main, told by
# -Dralon.launcher.hook, answers with ANSWERED (10) where it means 0: any status but 10 and 2 is reported in one line
# and becomes 2 (docs/security.md, "Hooks fail closed").
ralon_hook=
case $1 in
  hook) ralon_hook=1 ;;
  --policy) [ "$3" = hook ] && ralon_hook=1 ;;
  --policy=*) [ "$2" = hook ] && ralon_hook=1 ;;
esac
# The remedy depends on where the java came from: a release never reads JAVA_HOME (its runtime is its own), so there
# the advice is to reinstall it or name a java with RALON_JAVA.
if [ "$jfrom" = "the release's runtime" ]; then
  ralon_fix="reinstall Ralon (this release's runtime is damaged; JAVA_HOME is not used by a release), or set RALON_JAVA to the bin/java of a JDK 17 or later"
else
  ralon_fix="set JAVA_HOME to a JDK 17 or later, or RALON_JAVA to its bin/java"
fi
ralon_nojava() { # WHY: one line and exit 2 (the hook's deny code too); the commands never start
  if [ -n "$ralon_hook" ]; then
    echo "ralon: cannot run Java ($1); refusing the tool call to stay safe ($ralon_fix)" >&2
  else
    echo "ralon: cannot run Java: $1; $ralon_fix" >&2
  fi
  exit 2
}
# Found and executable, checked with shell built-ins only (no fork on the usual path): a missing java is one line, not
# the shell's "exec: java: not found" with status 127. A JVM too old for Ralon is reported by Boot (compiled for Java 8).
case $j in
  */*) jp=$j ;;
  *) jp=; oldifs=$IFS; IFS=:
     for d in $PATH; do if [ -n "$d" ] && [ -f "$d/$j" ] && [ -x "$d/$j" ]; then jp=$d/$j; break; fi; done
     IFS=$oldifs
     [ -n "$jp" ] || ralon_nojava "no $j on PATH" ;;
esac
if [ ! -e "$jp" ]; then ralon_nojava "$jfrom: $jp does not exist"
elif [ -d "$jp" ] || [ ! -x "$jp" ]; then ralon_nojava "$jfrom: $jp is not an executable file"; fi
# The soft RLIMIT_NOFILE the user had, restored before `ralon run` execs the command (see Exec): read from this shell's
# /proc/self/limits ("Max open files  SOFT  HARD  files", proc(5)) with the read built-in, so no fork; $(ulimit -Sn),
# which forks a subshell, only where /proc is not there.
RALON_ORIG_NOFILE=
if [ -r /proc/self/limits ]; then
  while read -r l1 l2 l3 l4 l5; do
    if [ "$l1 $l2 $l3" = "Max open files" ]; then RALON_ORIG_NOFILE=$l4; break; fi
  done < /proc/self/limits
fi
[ -n "$RALON_ORIG_NOFILE" ] || RALON_ORIG_NOFILE=$(ulimit -Sn)
export RALON_ORIG_NOFILE
# The launcher's word to run's JVM that it starts inside the mount backend's namespace (LauncherNamespace): set below on
# that route only, never taken from the caller's environment (nor passed to the archive builder started on the way).
unset RALON_LAUNCHER_USERNS
# The JVM options of every start, and of the AOT training run that must match them (the mount stage's JVM uses the same
# list: MountLaunch.STAGE_JVM_OPTIONS). -XX:+DisableAttachMechanism: HotSpot's attach listener (a file .attach_pid<pid>
# and SIGQUIT, then the socket /tmp/.java_pid<pid>) lets any process of the same effective uid, or root, load a native
# library into the JVM (`load` command; the peer check compares SO_PEERCRED's uid with the JVM's: src/hotspot/os/posix/
# attachListener_posix.cpp), and a process an agent left running after one session would do that to the next ralon
# before anything is locked (docs/security.md, "A process left behind attaches to the next JVM").
ralon_vm="-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-MaxFDLimit -XX:-UsePerfData -Xss1m -XX:+DisableAttachMechanism"
# Class-data sharing (docs/performance.md): a static CDS archive of the classes a start loads, made in the background
# on first use for this executable and this java, then mapped at every start (about half the start-up time). On JDK 25
# and later the builder makes an ahead-of-time cache instead (JEP 483/514: -XX:AOTCacheOutput on a training run;
# classes loaded and linked, without method profiles: see the builder below), used with -XX:AOTCache; a JDK without
# AOT caches rejects that option and the builder falls back to the CDS archive. Which one exists decides which is
# used: no version check at start.
# It lives in .ralon-cds beside this file, under a path made of the build id, this file's absolute path and the java's
# path, so another build, copy or JDK never meets it. -Xshare:auto: a stale, corrupt or foreign archive
# is ignored by the JVM (checked: JDK 17 and 25), the run goes on without it, and Main deletes it so the next start
# makes a new one. RALON_CDS=0 turns this off. Only shell built-ins run here on the usual path (no fork).
cds=-Xshare:auto; cdslog=
# What became of the archive at this start, for `ralon status` (StartupArchive): used, off (RALON_CDS=0), building
# (being made now, or by another start), unwritable (its directory cannot be made), untrusted (the trust check below
# refused it), unplain (a path with a space or special character), failed (the last build failed: $a.failed says why)
ralon_cds_state=off ralon_cds_where=
ralon_levels() { # DIR beneath $c: ralon_paths = $c and each existing directory from $c down to DIR
  ralon_paths=$c; p=$c; r=${1#"$c"/}
  while [ -n "$r" ]; do
    p=$p/${r%%/*}
    case $r in */*) r=${r#*/} ;; *) r= ;; esac
    [ -d "$p" ] || return 0
    ralon_paths="$ralon_paths $p"
  done
}
ralon_trusted() { # PATH...: the first is .ralon-cds, the others lie beneath it (so it is listed first)
  [ -L "$1" ] && return 1
  if [ -O "$1" ]; then ralon_own=ours; else ralon_own=root; fi
  ralon_check "$@"
}
ralon_check() { # PATH...: ralon_own=ours: each the first's owner's or root's, the first the user's own; root: each
  # root's; file: each the first's owner's or root's, whoever that is
  # $(...) forks once and execs ls in that child; the lines are read back here from a here-document (dash writes
  # a short one into a pipe itself, without a fork): one fork where a pipeline into a loop took two.
  ralon_ls=$(LC_ALL=C ls -ldn -- "$@" 2>/dev/null) || return 1
  ralon_n=0; ralon_owner=
  while read -r ralon_m ralon_l ralon_u ralon_g ralon_rest; do
    ralon_n=$((ralon_n + 1))
    case $ralon_m in [d-]???????-*) ;; *) return 1 ;; esac # a link lists as l...; others' write bit: refused
    # the group's write bit: refused, but in a release (ralon_own=file) a user's file whose group is that user's own
    # (gid = uid, not root): the user-private group for which login.defs' USERGROUPS_ENAB gives users umask 002
    # (Debian, Ubuntu), so that a tarball they unpack is group-writable
    case $ralon_m in
      ?????w*) [ "$ralon_own" = file ] && [ "$ralon_u" != 0 ] && [ "$ralon_g" = "$ralon_u" ] || return 1 ;;
    esac
    [ -n "$ralon_owner" ] || ralon_owner=$ralon_u
    [ "$ralon_own" != root ] || [ "$ralon_u" = 0 ] || return 1
    [ "$ralon_u" = "$ralon_owner" ] || [ "$ralon_u" = 0 ] || return 1
  done <<EOF
$ralon_ls
EOF
  [ "$ralon_n" = "$#" ]
}
ralon_plain_path() { # PATH...: each absolute, with no space, special character, /./, /../ or //: the paths the
  # trust check lists and the JVM is given are then read back exactly as written (no word splitting, no globbing)
  for ralon_p; do
    case $ralon_p in /*) ;; *) return 1 ;; esac
    case $ralon_p in *[!A-Za-z0-9._/+-]*|*/../*|*/./*|*//*) return 1 ;; esac
  done
}
if [ -n "$ralon_rel" ] && [ "$jp" = "$ralon_rel/runtime/bin/java" ]; then
  # The release's own files (docs/security.md, "A release's files"): the runtime, the archive and JNA's library must
  # each belong to this file's owner or root, none a link, none writable by others (nor by a group not the owner's
  # own, as below); whoever could change them
  # could not necessarily change this file (a group-writable lib/, say), and they are code this JVM runs before
  # anything is enforced. Otherwise nothing starts: one line, exit 2 (the hook's deny code too).
  ralon_plain_path "$ralon_rel" ||
    ralon_nojava "the release at $ralon_rel is installed under a path with a space or a special character (move it)"
  ralon_own=file
  if ! ralon_check "$ralon_cp" "$ralon_rel" "$ralon_rel/bin" "$ralon_rel/lib" "$ralon_rel/lib/ralon.release" \
       "$ralon_rel/lib/ralon.jsa" "$ralon_rel/lib/jna" "$ralon_rel/lib/jna/libjnidispatch.so" "$ralon_rel/runtime" \
       "$ralon_rel/runtime/bin" "$ralon_rel/runtime/bin/java" "$ralon_rel/runtime/lib" "$ralon_rel/runtime/lib/modules" \
       "$ralon_rel/runtime/lib/server" "$ralon_rel/runtime/lib/server/libjvm.so"; then
    ralon_nojava "the release at $ralon_rel has a file that is missing, a link, or writable by another user than its owner or root (reinstall it)"
  fi
  # The archive was made at build time for this runtime and this file; -Xshare:auto: were it unusable, the start goes
  # on without it (slower). Main never deletes it (it deletes only .ralon-cds's). RALON_CDS=0 leaves it unused.
  if [ "${RALON_CDS:-1}" != 0 ]; then
    cds="-Xshare:auto -XX:SharedArchiveFile=$ralon_rel/lib/ralon.jsa -Dralon.cds.archive=$ralon_rel/lib/ralon.jsa"
    ralon_cds_state=used
  fi
  # jna.nounpack: JNA never unpacks its library (it is here), and so neither makes nor clears its temporary directory,
  # ~/.cache/JNA/temp, which Native otherwise does at every start (Native.loadNativeDispatchLibrary calls
  # removeTemporaryFiles first): a first start writes nothing in the home directory
  cds="$cds -Djna.boot.library.path=$ralon_rel/lib/jna -Djna.nounpack=true"
elif [ "${RALON_CDS:-1}" != 0 ]; then
  # Beside the executable, never in $HOME: an agent sandboxed by `ralon run` can usually write its home directory,
  # and a planted archive would be mapped into the next ralon before anything is enforced. Whoever can write the
  # executable's directory can already replace the executable. Not writable (e.g. /usr/local/bin as a user): no
  # archive, a slower start, nothing else.
  c=${self%/*}/.ralon-cds ralon_cds_where=${self%/*}/.ralon-cds
  ralon_plain_path "$c" "$self" "$jp" || { c=; ralon_cds_state=unplain ralon_cds_where=; }
  # Trust (docs/security.md): .ralon-cds, every directory on the way down to the archive, the archive, and JNA's
  # directory and library must each be the user's or root's (all root's when .ralon-cds is root's: a shared install
  # prepared with `sudo ralon status`), none a symbolic link, none writable by group or others. Else another user who
  # can create entries beside the executable without being able to replace it (a sticky directory such as /tmp)
  # could plant an archive or a library, or a link to a directory of ours that they retarget after this check. One
  # `ls` checks them all; it is the only command a start runs besides java.
  ralon_jsa=; ralon_jna=
  if [ -n "$c" ]; then
    a="$c/cds/@BUILD_ID@$self$jp.jsa"
    aot="$c/cds/@BUILD_ID@$self$jp.aot" # the AOT cache, made instead of $a by a JDK that has them (25+)
    if [ -e "$c" ] || [ -L "$c" ]; then
      ralon_levels "${a%/*}"
      if [ -f "$aot" ]; then ralon_jsa=$aot; elif [ -f "$a" ]; then ralon_jsa=$a; fi
      if [ -n "$ralon_jsa" ]; then
        ralon_paths="$ralon_paths $ralon_jsa"
        if [ -f "$ralon_jsa.jna/libjnidispatch.so" ]; then
          ralon_jna=1; ralon_paths="$ralon_paths $ralon_jsa.jna $ralon_jsa.jna/libjnidispatch.so"
        fi
      fi
      ralon_trusted $ralon_paths || { c=; ralon_cds_state=untrusted; }
    fi
  fi
  if [ -n "$c" ]; then
    if [ "$ralon_jsa" = "$aot" ]; then
      # Not with -Xshare:auto, which the JVM refuses beside -XX:AOTCache (its default -XX:AOTMode=auto is the same
      # "use it if it fits" rule). -Xlog:aot*=off (after the other -Xlog options: the last one wins): the JVM's report
      # of a cache it could not use, as for cds; only JDK 25+ knows the tag, and only a JDK 25+ made this file.
      # ralon.cds.archive: Main deletes a cache the JVM rejected; the mount stage maps the same one (MountLaunch).
      cds="-XX:AOTCache=$aot -Dralon.cds.archive=$aot"; cdslog=-Xlog:aot*=off:stderr
    elif [ -n "$ralon_jsa" ]; then
      cds="-Xshare:auto -XX:SharedArchiveFile=$a -Dralon.cds.archive=$a"
    fi
    # JNA's native library, copied beside the archive by the builder: JNA otherwise unpacks a fresh copy into
    # ~/.cache/JNA at every start (~30 ms), a directory a sandboxed agent can write (docs/security.md).
    if [ -n "$ralon_jna" ]; then cds="$cds -Djna.boot.library.path=$ralon_jsa.jna -Djna.nounpack=true"; fi
    ralon_cds_state=building
    if [ -n "$ralon_jsa" ]; then
      ralon_cds_state=used
    elif [ -e "$a" ] || [ -e "$aot" ]; then
      : # appeared since the check (a builder finishing): used from the next start
    elif [ -f "$a.failed" ] && [ -n "$(find "$a.failed" -maxdepth 0 -mmin -1440 2>/dev/null)" ]; then
      ralon_cds_state=failed # the last build failed less than a day ago: not tried again at every start
      ralon_cds_where=$a.failed
    elif (umask 022; mkdir -p "${a%/*}") 2>/dev/null; then
      find "$a.lock" -maxdepth 0 -mmin +10 -exec rmdir {} \; 2>/dev/null # left by a builder that was killed
      if mkdir "$a.lock" 2>/dev/null; then
        # Detached (double fork, own session, no inherited stdio): neither the command `ralon run` becomes nor a
        # terminal's Ctrl-C ever sees it. Written under a temporary name, renamed into place when complete. It works
        # in the archive's directory, not in the caller's: a JVM that crashes writes hs_err_pid<pid>.log (and a core
        # file) into its working directory, and the AOT assembly of Temurin 25.0.3 was seen to crash (SIGSEGV in
        # FinalImageRecipes::apply_recipes, 3 of the test suite's many builds); the user's project is not the place,
        # and there the report goes with the build's directory (the last line below). The java is $jp, absolute.
        # JDK 25+: one training run writes the AOT cache (-XX:AOTCacheOutput: the JVM trains, then assembles the
        # cache in a child JVM at exit), with the options the starts below use (the cache records them and is
        # refused under others). An older JDK rejects the option at once ("Unrecognized VM option"): then the CDS
        # class list and archive, as before. -XX:-AOTRecordTraining (JEP 515's method profiles, a diagnostic option of
        # the training run only, never of a start): with the training's profiles the JIT compiles at once, at every
        # start, what the training ran hot (its walks, status's plans), and a start is short; without them a landlock
        # run took 4 % less wall time and 9 % less CPU (docs/performance.md, fifth round). A JDK that does not know
        # the option rejects it here the same way, and gets the CDS archive.
        # Nothing the builder makes is created with its parents: it may outlive its directory (the user removes the
        # install, a test its temporary directory) and must not bring the tree back (seen on CI: a directory removed
        # under a training reappeared). A JVM cannot start in a removed working directory ("Could not determine
        # current working directory"), and a name relative to a working directory removed later cannot be created
        # (ENOENT); the JVM's own outputs are opened without parents; Train makes its JNA directory alone
        # (Files.createDirectory) and has JNA load that copy with jna.nounpack, so JNA neither unpacks nor makes its
        # temporary directory. jna.tmpdir, for a jar without this platform's library (JNA then still clears that
        # directory, with mkdirs: Native.getTempDir): relative, beside the archive (removed at the end), and not in
        # the password file's home, which JNA takes when XDG_CACHE_HOME is unset (user.home) and which need not be
        # $HOME (seen: ~root/.cache/JNA left by a run with HOME elsewhere).
        # What the training and the dump print goes to $2.log.<pid>; a build that makes no archive keeps it as
        # $2.failed (removed by the next build that succeeds), which `ralon status` names, and the starts of the next
        # day do not try again (a full disk, a JVM that cannot dump, must not cost a training run at every start).
        ( setsid sh -c 'umask 022
            cd "${2%/*}" || { rmdir "$2.lock"; exit 1; }
            exec 3>&1 4>&2 >"${2##*/}.log.$$" 2>&1
            if "$1" $6 -XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining -XX:AOTCacheOutput="$5.$$" \
                 -Djna.platform.library.path=/lib:/usr/lib -Djna.tmpdir="${2##*/}.jnatmp.$$" \
                 --enable-native-access=ALL-UNNAMED -cp "$3" dev.ralon.cli.Train "$5.jna.$$" && [ -f "$5.$$" ]; then
              { [ ! -d "$5.jna.$$" ] || { rm -rf "$5.jna" && mv "$5.jna.$$" "$5.jna"; }; } && mv -f "$5.$$" "$5"
            else
              rm -rf "$5.$$" "$5.$$.config" "$5.jna.$$"
              "$1" $6 -Xshare:off -XX:DumpLoadedClassList="$2.lst.$$" -Djna.tmpdir="${2##*/}.jnatmp.$$" \
                 -Djna.platform.library.path=/lib:/usr/lib --enable-native-access=ALL-UNNAMED -cp "$3" dev.ralon.cli.Train \
                 "$2.jna.$$" \
              && "$1" -XX:+DisableAttachMechanism -Xshare:dump -XX:SharedClassListFile="$2.lst.$$" -XX:SharedArchiveFile="$2.$$" \
                 --enable-native-access=ALL-UNNAMED -cp "$3" \
              && { [ ! -d "$2.jna.$$" ] || { rm -rf "$2.jna" && mv "$2.jna.$$" "$2.jna"; }; } \
              && mv -f "$2.$$" "$2"
            fi
            exec 1>&3 2>&4
            if [ -f "$2" ] || [ -f "$5" ]; then rm -f "$2.failed" "${2##*/}.log.$$"; else mv -f "${2##*/}.log.$$" "$2.failed"; fi
            rm -rf "$2.lst.$$" "$2.$$" "$2.jna.$$" "$2.jnatmp.$$" "$5.$$" "$5.$$.config" "$5.jna.$$"; rmdir "$2.lock"
            find "$4" -mindepth 1 -maxdepth 1 -type d -mtime +30 -exec rm -rf {} +' \
            sh "$jp" "$a" "$self" "$c/cds" "$aot" "$ralon_vm" </dev/null >/dev/null 2>&1 & ) # (last: archives of builds made over 30 days ago go)
      fi
    else
      ralon_cds_state=unwritable
    fi
  fi
fi
# File names are UTF-8 under every locale (docs/security.md, "the same answer under every locale"). The JVM decodes
# them with the LC_CTYPE it starts with, and under C, POSIX or no locale at all that is ASCII (a name with "é" reads as
# "??", so `docs/*.clé` would match nothing); -Dsun.jnu.encoding=UTF-8 is ignored (checked: JDK 17 and 25). So when
# the user's LC_CTYPE is not a UTF-8 one, the JVM starts with LC_ALL=C.UTF-8 (upstream glibc has it since 2.35, but as
# locale data, not built in: with /usr/lib/locale/C.utf8 hidden, Debian's glibc 2.36 falls back to C). Where it is not
# installed the JVM falls back to ASCII, and Main then refuses in one line rather than run with mangled names. The user's own LC_ALL, set or unset, is recorded for `ralon run` to give back to the
# command exactly (RALON_LOCALE_FORCED, RALON_USER_LC_ALL; see Run.userEnvironment).
# libffi (inside JNA's native library) maps the code of its closures from a file it creates and unlinks at once in
# $LIBFFI_TMPDIR, else $TMPDIR, /tmp, /var/tmp or /dev/shm (libffi src/closures.c, open_temp_exec_file): seen here as
# /tmp/ffiXXXXXX (deleted) in ralon's JVM. Every session may write /tmp, and a process of the invoker's that opened
# that file in between could change code this JVM runs before anything is enforced. So the JVM's libffi gets a
# directory of the invoker's own that no confined session can write, made once (no fork on later starts); the user's
# own value goes back to the command (RALON_USER_LIBFFI_TMPDIR, Run.userEnvironment). Not under a link.
# libffi uses that file only where SELinux is enabled (selinuxfs mounted: its selinux_enabled_check) or the kernel
# refuses writable executable anonymous memory (src/closures.c dlmmap; the JIT needs such memory too); elsewhere it maps
# anonymous memory (checked with strace: `ralon status` opens no such file), so the directory is made only with
# SELinux: a first start elsewhere writes nothing in the home directory.
unset RALON_USER_LIBFFI_TMPDIR RALON_LIBFFI_SET
ralon_ffi=
if [ -e /sys/fs/selinux/enforce ] || [ -e /selinux/enforce ]; then
  case $HOME in
    /*) ralon_ffi=${XDG_CACHE_HOME:-$HOME/.cache}/ralon/ffi
        case $ralon_ffi in /*) ;; *) ralon_ffi=$HOME/.cache/ralon/ffi ;; esac ;;
  esac
fi
if [ -n "$ralon_ffi" ]; then
  if [ ! -d "$ralon_ffi" ]; then mkdir -p -m 700 "$ralon_ffi" 2>/dev/null; fi
  if [ -d "$ralon_ffi" ] && [ ! -L "$ralon_ffi" ] && [ -O "$ralon_ffi" ]; then
    if [ -n "${LIBFFI_TMPDIR+set}" ]; then RALON_USER_LIBFFI_TMPDIR=$LIBFFI_TMPDIR; export RALON_USER_LIBFFI_TMPDIR; fi
    LIBFFI_TMPDIR=$ralon_ffi; RALON_LIBFFI_SET=1; export LIBFFI_TMPDIR RALON_LIBFFI_SET
  fi
fi
unset RALON_USER_LC_ALL RALON_LOCALE_FORCED
case ${LC_ALL:-${LC_CTYPE:-$LANG}} in
  *.[Uu][Tt][Ff]-8|*.[Uu][Tt][Ff]8|*.[Uu][Tt][Ff]-8@*|*.[Uu][Tt][Ff]8@*) ;;
  *) if [ -n "${LC_ALL+set}" ]; then RALON_USER_LC_ALL=$LC_ALL; export RALON_USER_LC_ALL; fi
     RALON_LOCALE_FORCED=1; export RALON_LOCALE_FORCED
     LC_ALL=C.UTF-8; export LC_ALL ;;
esac
# `ralon run` whose backend may be mount or landlock (none named, or --backend mount or landlock; not --dry-run or
# --help): the JVM starts as root of the mount backend's first user+mount namespace, and the binds are made in it, with
# no second JVM (the mount backend's two routes: docs/architecture.md; the JVM checks the namespace itself:
# LauncherNamespace); the landlock backend makes the session's PID namespace and its /proc there (LandlockContainment),
# before the restriction, which forbids mounting. First, the whole
# chain the mount probe runs, with ids 0 (one fork, three execs, a few ms): where it fails (no user namespaces, a
# seccomp filter, an unshare without --map-user) the JVM starts as usual and the backends decide as before, so this
# never refuses anything. The unshare candidates are MountProbe's, in its order. Not when a plugin directory is beside
# this file (host/PluginDirectory): a plugin may outrank mount, and its trust check compares owners, which a user
# namespace maps (root's files show as the overflow uid there).
# Every start's JVM options (split into words on purpose: each path in them was checked to hold no space or pattern).
# Each start below also tells the JVM, as two quoted words after the user's options (so they cannot be replaced),
# this file's absolute path as invoked (-Dralon.launcher, links not resolved) and the java it runs
# (-Dralon.launcher.java): the baseline protects both, the links on the way and .ralon-cds, when the invoker can write
# them (docs/security.md, "The repository's doors").
# user.home follows $HOME when it is absolute (one quoted word: it may hold a space): the JVM takes it from the password
# file otherwise, and JNA, when it unpacks its library (no archive beside the executable yet) with XDG_CACHE_HOME unset,
# makes user.home/.cache/JNA/temp (com.sun.jna.Native.getTempDir): a run with HOME elsewhere (env -i HOME=..., a test's
# home, the mount route's uid 0 whose password entry is root's) must not write into another home. A relative HOME is
# not a home (a directory of the working one, the project): then the JVM keeps the password file's.
ralon_home=
case $HOME in /?*) ralon_home="-Duser.home=$HOME" ;; esac
# ralon.cds.state (and where): the archive's fate at this start, for `ralon status` (its words: see ralon_cds_state);
# ralon_cds_where is a path ralon_plain_path accepted (one word), or empty.
ralon_jvm="$ralon_vm $cds -Dralon.cds.state=$ralon_cds_state${ralon_cds_where:+ -Dralon.cds.where=$ralon_cds_where} -Xlog:disable -Xlog:all=warning:stderr -Xlog:cds*=off:stderr $cdslog -Djna.platform.library.path=/lib:/usr/lib --enable-native-access=ALL-UNNAMED"
ralon_may_userns() { # ARGS after "run"
  while [ $# -gt 0 ]; do
    case $1 in
      --) return 0 ;;
      --backend=mount|--backend=landlock) ;;
      --backend=*|--dry-run|--help|-h|--version|-V) return 1 ;;
      --backend) [ "$2" = mount ] || [ "$2" = landlock ] || return 1; shift ;;
      --policy) shift ;;
    esac
    shift
  done
  return 0
}
ralon_userns=
if [ "$1" = run ] && [ ! -e "${self%/*}/ralon-plugins" ] && [ ! -L "${self%/*}/ralon-plugins" ] && ralon_may_userns "$@"; then
  for u in /usr/bin/unshare /bin/unshare /usr/sbin/unshare /sbin/unshare; do
    if [ -f "$u" ] && [ -x "$u" ]; then
      if "$u" --user --map-root-user --mount --propagation private -- \
           "$u" --user --mount --map-user=0 --map-group=0 -- "$u" --version </dev/null >/dev/null 2>&1; then
        ralon_userns=$u
      fi
      break
    fi
  done
fi
if [ -n "$ralon_userns" ]; then
  # unshare execs java in this same process ($$ stays its pid: the JVM checks the variable names itself; a variable, as
  # no -D in RALON_JAVA_OPTS or _JAVA_OPTIONS can override it: LauncherNamespace). user.home (ralon_home, above): the
  # JVM would otherwise take uid 0's home from the password file.
  RALON_LAUNCHER_USERNS=$$; export RALON_LAUNCHER_USERNS
  exec "$ralon_userns" --user --map-root-user --mount --propagation private -- "$jp" $ralon_jvm ${ralon_home:+"$ralon_home"} $RALON_JAVA_OPTS "-Dralon.launcher=$self" "-Dralon.launcher.java=$jp" -cp "$ralon_cp" dev.ralon.cli.Boot "$@"
fi
# In hook mode the agent reads stdout as the answer's JSON, so nothing else may reach it: the JVM's own stdout (where
# HotSpot writes "Error occurred during initialization of VM", where `java --version` and -Xlog:...:stdout write)
# goes to stderr, and Main, told the path of the answer's channel by -Dralon.launcher.hook, writes its answer to fd 3,
# a pipe read here. The answer is printed only when Java says it answered (status 10, or 2: a deny on stderr, printed
# with nothing on stdout); any other end prints nothing on stdout and denies by status 2.
if [ -n "$ralon_hook" ]; then
  ralon_answer=$("$jp" $ralon_jvm ${ralon_home:+"$ralon_home"} $RALON_JAVA_OPTS -Dralon.launcher.hook=/proc/self/fd/3 "-Dralon.launcher=$self" "-Dralon.launcher.java=$jp" -cp "$ralon_cp" dev.ralon.cli.Boot "$@" 3>&1 1>&2)
  rc=$?
  case $rc in
    10) if [ -n "$ralon_answer" ]; then printf '%s\n' "$ralon_answer"; fi; exit 0 ;;
    2) exit 2 ;;
  esac
  if [ "$rc" -gt 128 ]; then why="killed by signal $((rc - 128))"; else why="exit status $rc without an answer"; fi
  echo "ralon: the Java VM failed ($why; $jfrom: $jp); refusing the tool call to stay safe" >&2
  exit 2
fi
exec "$jp" $ralon_jvm ${ralon_home:+"$ralon_home"} $RALON_JAVA_OPTS "-Dralon.launcher=$self" "-Dralon.launcher.java=$jp" -cp "$ralon_cp" dev.ralon.cli.Boot "$@"
