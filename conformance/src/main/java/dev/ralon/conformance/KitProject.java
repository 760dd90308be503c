package dev.ralon.conformance;

import dev.ralon.testsupport.Leftovers;

import dev.ralon.conformance.KitRun.Case;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * The attacked project of one run, under {@code /tmp/ralon-kit-BACKEND-*}: {@code proj/} (a git repository with one
 * directory {@code c/ATTACK-KIND/} per case, {@code free/} unprotected scratch space, agent.lock) and {@code home/}
 * (the command's HOME and temporary directory, the attack script and its log), owned by the user the command runs as.
 */
final class KitProject {
    final int uid;
    final List<Case> cases = new ArrayList<>();
    final Path base;
    final Path proj;
    final Path home;
    final Path free;

    /**
     * @param includeMissing whether to make the cases of protected paths that do not exist yet
     * @param includeLinked  whether to make the cases of protected files reached through a symbolic link on the way:
     *                       such a link is a protected path of kind SYMLINK, which the host refuses for a backend that
     *                       does not declare it covers links (host-side admission), and the whole run would be refused
     */
    KitProject(String backend, int uid, boolean includeMissing, boolean includeLinked) throws IOException {
        this.uid = uid;
        this.base = Leftovers.createTempDirectory(Path.of("/tmp"), "ralon-kit-" + backend + "-");
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        this.proj = base.resolve("proj");
        this.home = base.resolve("home");
        this.free = proj.resolve("free");
        boolean root = uid == 0;
        for (Attack a : Attacks.all()) {
            if (a.rootOnly() && !root) {
                continue;
            }
            for (PathKind k : PathKind.values()) {
                if (!a.kinds().contains(k) || (k == PathKind.MISSING && !includeMissing)
                        || (k == PathKind.LINKED && !includeLinked)) {
                    continue;
                }
                String id = a.id() + "-" + k.id();
                Path dir = proj.resolve("c").resolve(id);
                Path target;
                Path way;
                switch (k) {
                    case FILE -> {
                        target = dir.resolve("w/target.txt");
                        way = dir.resolve("w");
                    }
                    case GLOB -> {
                        target = dir.resolve("w/target.pem");
                        way = dir.resolve("w");
                    }
                    case NESTED -> {
                        target = dir.resolve("locked/sub/target.txt");
                        way = dir;
                    }
                    case DIRECTORY -> {
                        target = dir.resolve("locked");
                        way = dir;
                    }
                    case POLICY -> {
                        target = proj.resolve("agent.lock");
                        way = proj;
                    }
                    case MISSING -> {
                        target = dir.resolve("w/secret.env");
                        way = dir.resolve("w");
                    }
                    case LINKED -> {
                        target = dir.resolve("lib/door");
                        way = dir.resolve("lib");
                    }
                    default -> throw new IllegalStateException(k.name());
                }
                cases.add(new Case(a, k, id, target, way));
            }
        }
    }

    static final String POLICY_COMMITTED = "version: 1\nprotect: []\n";

    /** Writes the project, commits it to git, makes the git-checkout targets locally modified; returns agent.lock text. */
    String build() throws IOException {
        Files.createDirectories(free);
        Files.createDirectories(home.resolve("tmp"));
        // outside the project and the session's one temporary directory (the run's --temp is home/tmp): the
        // writes-outside attacks aim here
        write(home.resolve("outside.txt"), "outside\n");
        write(free.resolve("evil"), "pwned evil\n");
        write(free.resolve("existing.txt"), "unprotected\n");
        write(proj.resolve("c/ok-next/w/target.txt"), "original ok-next\n");
        // ordinary work the run must not stop (or, in a create-restricted directory, must stop: the plan says which)
        write(proj.resolve("c/ok-next/w/notes.txt"), "notes\n");
        write(proj.resolve("c/ok-next/w/notes2.txt"), "notes2\n");
        write(proj.resolve("c/ok-next/sibling.txt"), "sibling\n");
        for (String f : List.of("movable", "linkable", "crossing", "removable")) {
            write(free.resolve("a").resolve(f), f + "\n");
        }
        Files.createDirectories(free.resolve("b"));
        StringBuilder lock = new StringBuilder("version: 1\nprotect:\n  - c/**/*.pem\n  - c/ok-next/w/target.txt\n");
        for (Case c : cases) {
            Path rel = proj.relativize(c.target());
            switch (c.kind()) {
                case FILE -> {
                    write(c.target(), "original " + c.id() + "\n");
                    lock.append("  - ").append(rel).append('\n');
                }
                case GLOB -> write(c.target(), "original " + c.id() + "\n");
                case NESTED -> {
                    write(c.target(), "original " + c.id() + "\n");
                    lock.append("  - ").append(proj.relativize(c.way().resolve("locked"))).append("/\n");
                }
                case DIRECTORY -> {
                    write(c.target().resolve("inner.txt"), "original inner " + c.id() + "\n");
                    write(c.target().resolve("sub/deep.txt"), "original deep " + c.id() + "\n");
                    lock.append("  - ").append(rel).append("/\n");
                }
                case MISSING -> {
                    Files.createDirectories(c.way());
                    lock.append("  - ").append(rel).append('\n');
                }
                case POLICY -> {
                }
                case LINKED -> {
                    Path dir = c.way().getParent();
                    write(dir.resolve("real/target.key"), "original " + c.id() + "\n");
                    write(dir.resolve("decoy/target.key"), "decoy " + c.id() + "\n");
                    Files.createDirectories(c.way());
                    Files.createSymbolicLink(c.target(), Path.of("../real"));
                    lock.append("  - ").append(proj.relativize(c.target())).append("/*.key\n");
                }
                default -> throw new IllegalStateException();
            }
            if (c.program() && List.of("exchange", "exchange-aside").contains(c.attack().operation())) {
                Path other = c.other(free);
                if (c.attack().watchesWay() || c.kind() == PathKind.DIRECTORY) {
                    write(other.resolve("planted.txt"), "pwned " + c.id() + "\n");
                } else {
                    write(other, "pwned " + c.id() + "\n");
                }
            }
        }
        write(proj.resolve("agent.lock"), POLICY_COMMITTED);
        git("init", "-q");
        git("add", "-A");
        git("-c", "user.name=kit", "-c", "user.email=kit@example.invalid", "commit", "-q", "-m", "kit project");
        String policy = lock.toString();
        write(proj.resolve("agent.lock"), policy);
        for (Case c : cases) {
            if (c.attack().id().equals("git-checkout") && c.kind() != PathKind.POLICY) {
                write(c.target(), "local edit " + c.id() + "\n");
            }
        }
        KitHost.run(List.of("chmod", "-R", "a+rX", base.toString()), 60);
        if (uid != KitHost.currentUid()) {
            KitHost.run(List.of("chown", "-R", "-h", uid + ":" + uid, proj.toString(), home.toString()), 60);
            // the project's parent too: renaming the project itself (an attack on a directory on the way) must be
            // possible for this user without a sandbox, or the attack would prove nothing
            KitHost.run(List.of("chown", uid + ":" + uid, base.toString()), 60);
        }
        return policy;
    }

    private void git(String... args) throws IOException {
        // HOME is the run's own: the invoking user's git configuration (signing, hooks) must not change the project
        List<String> cmd = new ArrayList<>(List.of("env", "HOME=" + home, "git", "-C", proj.toString()));
        cmd.addAll(List.of(args));
        String out = KitHost.run(cmd, 60);
        if (out == null) {
            throw new IOException("git " + String.join(" ", args) + " failed in " + proj);
        }
    }

    static void write(Path p, String content) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, content, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
    }

    void delete() {
        try {
            KitHost.run(List.of("rm", "-rf", "--one-file-system", base.toString()), 120);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
