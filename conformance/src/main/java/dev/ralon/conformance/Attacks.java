package dev.ralon.conformance;

import dev.ralon.enforcer.spi.Guarantee;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The attack catalogue. Every attack is made against every kind of path it lists, each (attack × kind) in its own
 * directory; {@code docs/conformance.md} lists the same catalogue in prose.
 */
@dev.ralon.enforcer.spi.Internal("the kit's own catalogue; a third party meets an attack through each Verdict,"
        + " never through this list")
public final class Attacks {
    private static final Set<PathKind> CONTENT = EnumSet.of(PathKind.FILE, PathKind.GLOB, PathKind.NESTED,
            PathKind.POLICY);
    private static final Set<PathKind> OBJECT = EnumSet.of(PathKind.FILE, PathKind.GLOB, PathKind.NESTED,
            PathKind.POLICY, PathKind.DIRECTORY);
    private static final Set<PathKind> WAYS = EnumSet.of(PathKind.FILE, PathKind.GLOB, PathKind.NESTED,
            PathKind.DIRECTORY);
    private static final Set<PathKind> DIR = EnumSet.of(PathKind.DIRECTORY);
    private static final Set<PathKind> MISSING = EnumSet.of(PathKind.MISSING);
    private static final Set<PathKind> LINKED = EnumSet.of(PathKind.LINKED);

    private static final List<Attack> ALL = build();

    private Attacks() {
    }

    /** Every attack, in catalogue order (grouped by guarantee). */
    public static List<Attack> all() {
        return ALL;
    }

    private static List<Attack> build() {
        List<Attack> a = new ArrayList<>();
        Guarantee g = Guarantee.MODIFY_CONTENT;
        a.add(sh("write", "echo pwned > FILE (open O_WRONLY|O_CREAT|O_TRUNC, write)", g, CONTENT,
                "echo pwned > \"$T\""));
        a.add(sh("append", "echo pwned >> FILE (O_APPEND)", g, CONTENT, "echo pwned >> \"$T\""));
        a.add(sh("truncate", "truncate -s 0 FILE (truncate(2))", g, CONTENT, "truncate -s 0 \"$T\""));
        a.add(sh("cp-over", "cp FREE/evil FILE", g, CONTENT, "cp \"$F/evil\" \"$T\""));
        a.add(sh("sed-i", "sed -i s/original/pwned/ FILE (temporary file renamed over)", g, CONTENT,
                "sed -i s/original/pwned/ \"$T\""));
        a.add(sh("git-checkout", "git checkout -- FILE (restores the committed version)", g, CONTENT,
                "cd \"$P\" && git checkout -- \"$T\""));
        a.add(sh("hardlink", "ln FILE FREE/hl, then write through the link", g, CONTENT,
                "ln \"$T\" \"$F/hl-$ID\" && echo pwned >> \"$F/hl-$ID\""));
        a.add(sh("symlink", "ln -s FILE FREE/sl, then write through the link", g, CONTENT,
                "ln -s \"$T\" \"$F/sl-$ID\" && echo pwned >> \"$F/sl-$ID\""));
        a.add(sh("proc-self-fd", "open read-only, reopen /proc/self/fd/N for writing", g, CONTENT,
                "exec 3<\"$T\" && echo pwned >> /proc/self/fd/3"));
        // made with a helper (HelperCases): the host's session guard (a Landlock domain: no ptrace access, so no
        // /proc/PID/root, to a process outside) blocks it under noop too, so its control is the plain run
        a.add(prog("proc-pid-root", "write through /proc/PID/root of a same-user process outside the sandbox", g,
                EnumSet.of(PathKind.FILE, PathKind.GLOB, PathKind.NESTED), Attack.HELPER_PROC_ROOT));
        a.add(sh("userns-umount", "unshare -Ur -m, umount -l FILE, then write", g, CONTENT,
                "unshare -Ur -m sh -c 'umount -l \"$T\"; echo pwned >> \"$T\"'"));
        a.add(sh("userns-remount", "unshare -Ur -m, mount -o remount,rw,bind FILE, then write", g, CONTENT,
                "unshare -Ur -m sh -c 'mount -o remount,rw,bind \"$T\"; echo pwned >> \"$T\"'"));
        a.add(prog("o-trunc", "open(FILE, O_RDONLY|O_TRUNC)", g, CONTENT, "otrunc"));
        a.add(prog("punch-hole", "fallocate(FALLOC_FL_PUNCH_HOLE) over the content", g, CONTENT, "punch-hole"));
        a.add(prog("copy-file-range", "copy_file_range(FREE/evil -> FILE)", g, CONTENT, "copy-file-range"));
        a.add(prog("mmap", "mmap(MAP_SHARED, PROT_WRITE) of an O_RDWR descriptor, store, msync", g, CONTENT, "mmap"));
        a.add(new Attack("open-by-handle", "name_to_handle_at, open_by_handle_at(O_WRONLY) without walking the path,"
                + " write (root only)", g, CONTENT, null, "open-by-handle", true));

        g = Guarantee.DELETE;
        a.add(sh("rm", "rm -rf PATH", g, OBJECT, "rm -rf \"$T\""));

        g = Guarantee.RENAME_AWAY;
        a.add(sh("mv-away", "mv PATH FREE/", g, OBJECT, "mv \"$T\" \"$F/away-$ID\""));
        a.add(sh("mv-aside", "mv PATH PATH.bak (same directory)", g, OBJECT, "mv \"$T\" \"$T.bak\""));

        g = Guarantee.RENAME_OVER;
        a.add(sh("atomic-save", "editor atomic save: write .FILE.swp next to it, rename it over FILE", g, CONTENT,
                "d=$(dirname \"$T\"); printf pwned > \"$d/.$ID.swp\" && mv -f \"$d/.$ID.swp\" \"$T\""));
        a.add(sh("mv-over", "mv -f FREE/new FILE", g, CONTENT,
                "echo pwned > \"$F/o-$ID\" && mv -f \"$F/o-$ID\" \"$T\""));
        a.add(prog("exchange", "renameat2(FREE/x, PATH, RENAME_EXCHANGE)", g, OBJECT, "exchange"));

        g = Guarantee.CREATE_INSIDE;
        a.add(sh("create-inside", "echo pwned > DIR/new.txt", g, DIR, "echo pwned > \"$T/new.txt\""));
        a.add(sh("mkdir-inside", "mkdir DIR/newdir", g, DIR, "mkdir \"$T/newdir\""));
        a.add(sh("rm-inside", "rm DIR/inner.txt", g, DIR, "rm -f \"$T/inner.txt\""));
        a.add(sh("rename-inside", "mv DIR/inner.txt DIR/renamed.txt", g, DIR,
                "mv \"$T/inner.txt\" \"$T/renamed.txt\""));
        a.add(sh("mv-into", "mv FREE/new DIR/", g, DIR, "echo pwned > \"$F/in-$ID\" && mv \"$F/in-$ID\" \"$T/\""));

        g = Guarantee.ANCESTOR_RENAME;
        a.add(sh("mv-way", "mv the directory on the way (the protected path's parent) elsewhere", g,
                EnumSet.of(PathKind.FILE, PathKind.GLOB, PathKind.NESTED, PathKind.DIRECTORY, PathKind.POLICY),
                "cd / && mv \"$W\" \"$W.moved\""));
        a.add(sh("rm-way", "rm -rf the directory on the way", g, WAYS, "rm -rf \"$W\""));
        a.add(prog("exchange-way", "renameat2(FREE/xw, WAY, RENAME_EXCHANGE) on the directory on the way", g, WAYS,
                "exchange"));

        g = Guarantee.METADATA;
        a.add(sh("chmod", "chmod go-rwx PATH", g, OBJECT, "chmod go-rwx \"$T\""));
        a.add(sh("utime", "touch -d 2001-02-03 PATH (utimensat)", g, OBJECT, "touch -d 2001-02-03 \"$T\""));
        a.add(new Attack("chown", "chown 1:1 PATH (root only)", g, OBJECT, "chown 1:1 \"$T\"", null, true));
        a.add(prog("xattr", "setxattr(PATH, user.ralon-kit)", g, OBJECT, "xattr"));

        g = Guarantee.LEFTOVERS;
        // The leftover waits for the command to end (the script creates $F/ended last), then writes a file of its own a
        // second later; KitRun looks for that file after the run (not at the attacked path). It stops waiting after an
        // hour, writing nothing, so that a leftover a backend failed to end, or the control's, never outlives the kit
        // for good (they did: a run killed before its end never makes $F/ended, and loops in deleted directories were
        // found hours later). Not sooner when $F is missing: other attacks rename the project during the run (the kit
        // puts it back), and a leftover that gave up then was judged "held" (seen twice, as uid 65534). Its arguments
        // name the case and $F: KitRun finds it by them when its file is late.
        a.add(sh("leftover", "nohup sh -c 'wait for the command to end; echo late > FREE/leftover' &", g,
                EnumSet.of(PathKind.FILE), "nohup sh -c 'i=0; while [ ! -e \"$F/ended\" ]"
                        + " && [ $i -lt 36000 ]; do sleep 0.1; i=$((i + 1)); done; [ -e \"$F/ended\" ] || exit 0;"
                        + " sleep 1; echo late > \"$F/leftover-$1\"' sh \"$ID\" \"$F\" >/dev/null 2>&1 </dev/null &"));

        g = Guarantee.WRITES_OUTSIDE;
        // $HOME is outside the project and outside the run's one temporary directory ($TMPDIR, given with --temp):
        // KitRun judges by the files there, not at the attacked path
        a.add(sh("write-outside", "echo pwned > $HOME/new (a file outside the project and the writable areas)", g,
                EnumSet.of(PathKind.FILE), "echo pwned > \"$HOME/outside-$ID\""));
        a.add(sh("overwrite-outside", "echo pwned >> $HOME/outside.txt (an existing file outside)", g,
                EnumSet.of(PathKind.FILE), "echo \"pwned $ID\" >> \"$HOME/outside.txt\""));
        a.add(sh("mkdir-outside", "mkdir $HOME/.config-new (a directory outside)", g,
                EnumSet.of(PathKind.FILE), "mkdir \"$HOME/outside-$ID\""));
        // the confinement undone first: / and $HOME remounted read-write (a sandbox that keeps its capabilities lets
        // it: a bubblewrap variant passed the three above and not this one), only in a mount namespace of the
        // sandbox's own (not init's: under noop as root it would remount the machine's); then the shared memory directory, which is
        // no writable area under --temp, and /dev itself, which root can otherwise write (judged there: KitRun)
        a.add(sh("remount-outside", "mount -o remount,rw,bind / and $HOME, then echo pwned > $HOME/new", g,
                EnumSet.of(PathKind.FILE), "if [ \"$(readlink /proc/self/ns/mnt)\" != \"$(readlink /proc/1/ns/mnt"
                        + " 2>/dev/null)\" ]; then for m in / \"$HOME\"; do mount -o remount,rw,bind \"$m\" 2>/dev/null;"
                        + " done; fi; echo pwned > \"$HOME/outside-$ID\""));
        a.add(sh("shm-outside", "echo pwned > /dev/shm/new (not a writable area under --temp)", g,
                EnumSet.of(PathKind.FILE), "echo pwned > \"/dev/shm/outside-$RALON_KIT_RUN-$ID\""));
        a.add(new Attack("dev-outside", "echo pwned > /dev/new (root only: /dev is writable to root)", g,
                EnumSet.of(PathKind.FILE), "echo pwned > \"/dev/outside-$RALON_KIT_RUN-$ID\"", null, true));

        g = Guarantee.CREATE_MISSING;
        a.add(sh("create", "echo pwned > MISSING", g, MISSING, "echo pwned > \"$T\""));
        a.add(sh("create-by-rename", "mv FREE/new MISSING", g, MISSING,
                "echo pwned > \"$F/m-$ID\" && mv \"$F/m-$ID\" \"$T\""));
        a.add(sh("create-symlink", "ln -s FREE/evil MISSING", g, MISSING, "ln -s \"$F/evil\" \"$T\""));
        a.add(sh("create-dir", "mkdir MISSING", g, MISSING, "mkdir \"$T\""));

        // retargeted link on the way: the ancestor-rename guarantee extended to the links a protected path is reached
        // through (added after the entries above; their order and names are unchanged)
        g = Guarantee.ANCESTOR_RENAME;
        a.add(sh("retarget-link", "retargeted link on the way: ln -sfn ../decoy LINK", g, LINKED,
                "ln -sfn ../decoy \"$T\""));
        a.add(sh("replace-link", "retargeted link on the way: rm LINK, ln -s ../decoy LINK", g, LINKED,
                "rm -f \"$T\" && ln -s ../decoy \"$T\""));
        a.add(sh("mv-over-link", "retargeted link on the way: ln -s ../decoy LINK.new, mv -T over LINK", g, LINKED,
                "ln -s ../decoy \"$T.new\" && mv -fT \"$T.new\" \"$T\""));
        a.add(sh("mv-link-way", "retargeted link on the way: mv the link's directory away, make a new one with a new"
                + " link", g, LINKED, "cd / && mv \"$W\" \"$W.moved\" && mkdir \"$W\" && ln -s ../decoy \"$T\""));
        // The backends' own attack suites, folded into the catalogue (one harness): every attack they made that the
        // entries above did not make already, for every backend alike (docs/conformance.md lists where each went).
        // Before the mount-table attacks below: on agent.lock, which is attacked one attack at a time, an undone
        // mount cannot be put back by the kit, and would make every later attack on it get through.
        g = Guarantee.MODIFY_CONTENT;
        a.add(sh("dd-notrunc", "echo pwned | dd of=FILE conv=notrunc (a write without O_TRUNC)", g, CONTENT,
                "echo pwned | dd of=\"$T\" conv=notrunc"));
        a.add(sh("proc-self-root", "write through /proc/self/root/PATH (the sandbox's own root, walked again)", g,
                CONTENT, "echo pwned >> \"/proc/self/root$T\""));
        a.add(sh("setsid", "setsid: a new session (a daemon's first step) writes FILE", g, CONTENT,
                "setsid -w sh -c 'echo pwned >> \"$T\"' </dev/null"));
        a.add(sh("hardlink-aside", "ln FILE FILE.hl in its own directory, then write through the link", g, CONTENT,
                "ln \"$T\" \"$T.hl\" && echo pwned >> \"$T.hl\""));
        a.add(prog("truncate-path", "truncate(2) by path, no descriptor", g, CONTENT, "truncate-path"));
        // the same system calls from a nested user + mount namespace (unshare -Ur -m), where the caller holds every
        // capability over a copy of the sandbox's mounts (locked: mount_namespaces(7))
        a.add(prog("userns-setattr", "in unshare -Ur -m: mount_setattr(PROTECTED, attr_clr=MOUNT_ATTR_RDONLY), then"
                + " write", g, CONTENT, Attack.IN_USER_NAMESPACE + "setattr-write"));
        a.add(prog("userns-open-tree-clone", "in unshare -Ur -m: open_tree(PROJECT, OPEN_TREE_CLONE), write FILE"
                + " through the clone", g, CONTENT, Attack.IN_USER_NAMESPACE + "open-tree-clone"));
        a.add(prog("userns-open-tree-clone-rw", "in unshare -Ur -m: recursive open_tree clone, mount_setattr clearing"
                + " RDONLY on it, write FILE through it", g, CONTENT, Attack.IN_USER_NAMESPACE + "open-tree-clone-rw"));
        a.add(prog("userns-mmap", "in unshare -Ur -m: mmap(MAP_SHARED, PROT_WRITE) store, msync", g, CONTENT,
                Attack.IN_USER_NAMESPACE + "mmap"));
        a.add(prog("userns-xattr", "in unshare -Ur -m: setxattr(PATH, user.ralon-kit)", Guarantee.METADATA, OBJECT,
                Attack.IN_USER_NAMESPACE + "xattr"));
        a.add(prog("userns-exchange", "in unshare -Ur -m: renameat2(FREE/x, PATH, RENAME_EXCHANGE)",
                Guarantee.RENAME_OVER, OBJECT, Attack.IN_USER_NAMESPACE + "exchange"));
        a.add(prog("userns-open-by-handle-dir", "in unshare -Ur -m: name_to_handle_at(DIR), open_by_handle_at against"
                + " the root mount, create a file in it (by path when refused)", Guarantee.CREATE_INSIDE, DIR,
                Attack.IN_USER_NAMESPACE + "open-by-handle-dir"));
        g = Guarantee.RENAME_OVER;
        a.add(prog("exchange-aside", "renameat2(DIR/x, FILE, RENAME_EXCHANGE) with an unprotected file of the same"
                + " directory", g, EnumSet.of(PathKind.FILE, PathKind.GLOB), "exchange-aside"));
        g = Guarantee.CREATE_INSIDE;
        a.add(sh("rename-inside-up", "mv DIR/sub/deep.txt DIR/ (a rename between two directories inside)", g, DIR,
                "mv \"$T/sub/deep.txt\" \"$T/deep.txt\""));
        a.add(prog("open-by-handle-dir", "name_to_handle_at(DIR), open_by_handle_at against the root mount (not the"
                + " protected one), create a file in it (by path when the handle is refused)", g, DIR,
                "open-by-handle-dir"));
        g = Guarantee.ANCESTOR_RENAME;
        a.add(sh("mv-way-up", "mv the directory two levels up (the protected path's grandparent) elsewhere", g,
                EnumSet.of(PathKind.FILE, PathKind.GLOB), "cd / && U=$(dirname \"$W\") && mv \"$U\" \"$U.moved\""));

        // Around a checker that acts for the command (a seccomp user-notification broker, as landlock's): the path
        // rewritten after the notification, a directory swapped with a link during the call, a flood of calls, and
        // names a checker resolving them in its own context would misread ("..", /proc/self magic links). Before the
        // mount-table attacks, like every attack on agent.lock: an undone mount would let them through.
        g = Guarantee.MODIFY_CONTENT;
        a.add(prog("race-path", "race: open(PATH-IN-MEMORY, O_WRONLY|O_CREAT|O_TRUNC) while another thread rewrites"
                + " the memory between an unprotected name and FILE", g, CONTENT, "race-path"));
        a.add(prog("race-dir-link", "race: open(DIR/sw/NAME) for writing while another thread moves a directory and a"
                + " link to DIR in turn to DIR/sw", g, CONTENT, "race-dir-link"));
        a.add(prog("flood", "flood: four threads create and remove files beside FILE while another opens FILE for"
                + " writing again and again", g, CONTENT, "flood"));
        a.add(sh("dotdot", "mkdir DIR/dd, then echo pwned > DIR/dd/../NAME", g, CONTENT,
                "d=$(dirname \"$T\"); mkdir \"$d/dd-$ID\"; echo pwned > \"$d/dd-$ID/../${T##*/}\""));
        a.add(sh("magic-cwd", "cd DIR, then echo pwned > /proc/self/cwd/NAME (a magic link of the caller's)", g,
                CONTENT, "cd \"$(dirname \"$T\")\" && echo pwned > \"/proc/self/cwd/${T##*/}\""));
        a.add(sh("magic-fd", "exec 3< DIR, then echo pwned > /proc/self/fd/3/NAME", g, CONTENT,
                "exec 3<\"$(dirname \"$T\")\" && echo pwned > \"/proc/self/fd/3/${T##*/}\""));

        // Mount-table changes made directly in the sandbox's own namespace, then a write ($R is the protected path the
        // target lies in, the root of its read-only bind under a bind-mount enforcer). They catch an enforcer whose
        // command keeps the capabilities of the namespace that owns its mounts (a bubblewrap without --cap-drop ALL run
        // as root, or a stage that execs the command without a second, locking user namespace). Without a mount at $R
        // (Landlock, noop) each call fails with EINVAL and touches nothing: $R is always inside the kit's project.
        g = Guarantee.MODIFY_CONTENT;
        a.add(sh("umount", "umount PROTECTED directly in the sandbox, then write", g, CONTENT,
                "umount \"$R\"; echo pwned >> \"$T\""));
        a.add(sh("umount-lazy", "umount -l PROTECTED directly in the sandbox, then write", g, CONTENT,
                "umount -l \"$R\"; echo pwned >> \"$T\""));
        a.add(sh("remount-rw", "mount -o remount,rw PROTECTED (and remount,bind,rw) directly in the sandbox, then write",
                g, CONTENT, "mount -o remount,rw \"$R\"; mount -o remount,bind,rw \"$R\"; echo pwned >> \"$T\""));
        a.add(sh("mount-setattr", "program: mount_setattr(PROTECTED, attr_clr=MOUNT_ATTR_RDONLY) in the sandbox, then"
                + " write", g, CONTENT, "kit_program mount-setattr-rw \"$ID\" \"$R\" -; echo pwned >> \"$T\""));
        a.add(sh("move-mount", "program: move_mount(PROTECTED -> FREE/mv) in the sandbox, uncovering what lies beneath,"
                + " then write", g, CONTENT, "kit_program move-mount \"$ID\" \"$R\" \"$F/mv-$ID\"; echo pwned >> \"$T\""));

        // the same, through a clone of the project's mount tree: open_tree(2) (Linux 5.2)
        a.add(prog("open-tree-clone", "open_tree(PROJECT, OPEN_TREE_CLONE): a non-recursive clone of the project"
                + " without the mounts beneath it, write FILE through it", g, CONTENT, "open-tree-clone"));
        a.add(prog("open-tree-clone-rw", "open_tree(PROJECT, OPEN_TREE_CLONE|AT_RECURSIVE), mount_setattr clearing"
                + " RDONLY on the clone, write FILE through it", g, CONTENT, "open-tree-clone-rw"));

        // Around the boundary: the user's shell writes the file after the run, if the command could type into it.
        a.add(prog("tiocsti", "ioctl(0, TIOCSTI) pushes `echo pwned >> FILE` into the user's terminal (again with the"
                + " request's high bits set if refused); the user's interactive shell runs it after ralon run returns",
                g, EnumSet.of(PathKind.FILE), Attack.TERMINAL_PROGRAM));
        // Around the boundary: a helper of the user's outside writes the file for the command, if it can reach it.
        a.add(prog("helper-unix-socket", "a listener of the user's outside (as a tmux server or D-Bus would) appends"
                + " `pwned` to FILE for whoever connects to its Unix socket; the command connects", g,
                EnumSet.of(PathKind.FILE), Attack.HELPER_UNIX_SOCKET));
        a.add(prog("helper-signal", "a process of the user's outside appends `pwned` to FILE when it gets SIGUSR1;"
                + " the command sends it", g, EnumSet.of(PathKind.FILE), Attack.HELPER_SIGNAL));

        return List.copyOf(a);
    }

    private static Attack sh(String id, String title, Guarantee g, Set<PathKind> kinds, String shell) {
        return new Attack(id, title, g, kinds, shell, null, false);
    }

    private static Attack prog(String id, String title, Guarantee g, Set<PathKind> kinds, String op) {
        return new Attack(id, title, g, kinds, null, op, false);
    }
}
