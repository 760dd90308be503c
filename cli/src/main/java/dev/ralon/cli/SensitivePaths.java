package dev.ralon.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What {@code ralon init} proposes to protect: the sensitive paths it finds in a project, each as a pattern with a
 * comment saying why and what was found. A bounded walk (depth {@value #MAX_DEPTH}, {@value #MAX_ENTRIES} entries),
 * never following a symbolic link, skipping what is built or downloaded ({@link #SKIP}): init must stay instant in a
 * large repository, and a proposal is advice, not a guarantee.
 *
 * <p>The list, and why each is sensitive: secrets ({@code .env*}, private keys and key stores by extension, SSH private
 * keys by name, {@code .netrc}, {@code .npmrc}, {@code .pypirc}: credentials and, for .npmrc, a {@code script-shell}
 * that later runs code); CI definitions ({@code .github/workflows/}, {@code .gitlab-ci.yml}, {@code .circleci/}: they
 * run with the repository's secrets once pushed).
 */
final class SensitivePaths {
    static final int MAX_DEPTH = 6;
    static final int MAX_ENTRIES = 20_000;

    /** Directories not walked: version control, dependencies, build output. */
    static final Set<String> SKIP = Set.of(".git", "node_modules", "target", "build", "dist", ".venv", "venv",
            "vendor", "__pycache__", ".gradle", ".m2", ".tox", ".cache");

    /**
     * One proposed entry: the pattern, the comment above it, and what it covers in the project now (the first few
     * paths it matches, {@code .env, .env.example and 2 more}), so the comment says everything the pattern takes.
     */
    record Proposal(String pattern, String why, String found) {
    }

    /** How many matched paths a proposal names before "and N more". */
    private static final int NAMED = 3;

    private static String covers(List<String> all) {
        return dev.ralon.host.StartReport.names(all, NAMED);
    }

    private static final Map<String, String> KEY_EXTENSIONS = new LinkedHashMap<>();
    private static final Map<String, String> TOP_LEVEL_FILES = new LinkedHashMap<>();

    static {
        KEY_EXTENSIONS.put(".pem", "PEM certificates and private keys");
        KEY_EXTENSIONS.put(".key", "private keys");
        KEY_EXTENSIONS.put(".p12", "PKCS#12 key stores");
        KEY_EXTENSIONS.put(".pfx", "PKCS#12 key stores");
        KEY_EXTENSIONS.put(".jks", "Java key stores");
        KEY_EXTENSIONS.put(".keystore", "key stores");
        TOP_LEVEL_FILES.put(".npmrc", "npm credentials and settings (script-shell runs code in later installs)");
        TOP_LEVEL_FILES.put(".pypirc", "package index credentials");
        TOP_LEVEL_FILES.put(".netrc", "credentials for hosts");
        TOP_LEVEL_FILES.put(".gitlab-ci.yml", "CI definition: runs with the project's secrets once pushed");
    }

    private static final Set<String> SSH_KEYS = Set.of("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519");

    private SensitivePaths() {
    }

    /** The proposals for the project in {@code root}, in a fixed order (the order of the list above). */
    static List<Proposal> find(Path root) {
        Walk w = new Walk();
        w.walk(root, "", 0);
        List<Proposal> out = new ArrayList<>();
        if (!w.envTop.isEmpty()) {
            out.add(new Proposal(".env*", "environment files with secrets; every name starting with .env, templates"
                    + " such as .env.example too", covers(w.envTop)));
        }
        if (!w.envDeep.isEmpty()) {
            out.add(new Proposal("**/.env*", "environment files in subdirectories", covers(w.envDeep)));
        }
        if (Files.isDirectory(root.resolve(".github/workflows"), LinkOption.NOFOLLOW_LINKS)) {
            out.add(new Proposal(".github/workflows/**", "CI workflows: run with the repository's secrets once pushed",
                    ".github/workflows/"));
        }
        if (Files.isDirectory(root.resolve(".circleci"), LinkOption.NOFOLLOW_LINKS)) {
            out.add(new Proposal(".circleci/**", "CI definition: runs with the project's secrets once pushed",
                    ".circleci/"));
        }
        for (Map.Entry<String, String> e : TOP_LEVEL_FILES.entrySet()) {
            if (Files.exists(root.resolve(e.getKey()), LinkOption.NOFOLLOW_LINKS)) {
                out.add(new Proposal(e.getKey(), e.getValue(), e.getKey()));
            }
        }
        for (Map.Entry<String, String> e : KEY_EXTENSIONS.entrySet()) {
            List<String> found = w.byExtension.get(e.getKey());
            if (found != null) {
                out.add(new Proposal("**/*" + e.getKey(), e.getValue(), covers(found)));
            }
        }
        for (String k : List.of("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519")) {
            List<String> found = w.sshKeys.get(k);
            if (found != null) {
                out.add(new Proposal("**/" + k, "SSH private key", covers(found)));
            }
        }
        return out;
    }

    private static final class Walk {
        int seen;
        final List<String> envTop = new ArrayList<>();
        final List<String> envDeep = new ArrayList<>();
        final Map<String, List<String>> byExtension = new LinkedHashMap<>();
        final Map<String, List<String>> sshKeys = new LinkedHashMap<>();

        void walk(Path dir, String rel, int depth) {
            if (depth > MAX_DEPTH) {
                return;
            }
            List<Path> children = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                for (Path c : ds) {
                    if (++seen > MAX_ENTRIES) {
                        break;
                    }
                    children.add(c);
                }
            } catch (IOException | SecurityException | java.nio.file.DirectoryIteratorException e) {
                return; // advice only: an unreadable directory proposes nothing
            }
            children.sort(null);
            for (Path c : children) {
                String name = c.getFileName().toString();
                String childRel = rel.isEmpty() ? name : rel + "/" + name;
                if (Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS)) {
                    if (!SKIP.contains(name)) {
                        walk(c, childRel, depth + 1);
                    }
                    continue;
                }
                if (name.startsWith(".env")) {
                    (rel.isEmpty() ? envTop : envDeep).add(childRel);
                }
                String lower = name.toLowerCase(Locale.ROOT);
                for (String ext : KEY_EXTENSIONS.keySet()) {
                    if (name.endsWith(ext) && name.length() > ext.length()) {
                        byExtension.computeIfAbsent(ext, k -> new ArrayList<>()).add(childRel);
                    }
                }
                if (SSH_KEYS.contains(lower) && lower.equals(name)) {
                    sshKeys.computeIfAbsent(name, k -> new ArrayList<>()).add(childRel);
                }
            }
        }
    }
}
