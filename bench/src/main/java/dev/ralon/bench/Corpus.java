package dev.ralon.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Realistic inputs, generated from a fixed seed: the paths of a polyglot monorepo (Java, TypeScript, Go, config, docs,
 * node_modules) and the patterns people write in agent.lock.
 */
public final class Corpus {
    private Corpus() {
    }

    /** Patterns an agent.lock typically holds. Each is valid in both languages and means the same there for files. */
    public static final List<String> PATTERNS = List.of(
            "**/*.json", "pom.xml", "*.pem", ".github/workflows/*.yml", "config/**", "src/**/secret*.ts",
            "**/migrations/*.sql", "packages/*/package.json", "docs/**/*.md", "**/.env", "infra/terraform/**/*.tf",
            "services/*/src/main/resources/application*.yml");

    private static final String[] TOP = {"src", "packages", "services", "docs", "config", "infra", "tools", "test"};
    private static final String[] DIRS = {"main", "java", "com", "example", "api", "internal", "util", "core", "web",
        "auth", "db", "migrations", "components", "lib", "node_modules", "vendor", "resources", "handlers"};
    private static final String[] FILES = {"index.ts", "App.java", "service.go", "README.md", "package.json",
        "application.yml", "schema.sql", "secret.ts", "Makefile", "main.tf", "util.py", "tsconfig.json", ".env",
        "build.gradle", "Dockerfile", "test_util.py", "config.yaml", "LICENSE"};

    /**
     * {@code n} distinct relative file paths, deterministic: a directory tree of about n/20 directories (depth up to
     * 9, grown by adding a child to a random existing directory) with the files spread over it, about 20 per
     * directory, as in a real repository.
     */
    public static List<String> paths(int n) {
        Random r = new Random(42);
        List<String> dirs = new ArrayList<>(List.of(TOP));
        java.util.Set<String> seen = new java.util.HashSet<>(dirs);
        int wanted = Math.max(TOP.length, n / 20);
        while (dirs.size() < wanted) {
            String parent = dirs.get(r.nextInt(dirs.size()));
            if (parent.chars().filter(c -> c == '/').count() >= 8) {
                continue;
            }
            String child = parent + "/" + DIRS[r.nextInt(DIRS.length)] + (r.nextInt(3) == 0 ? String.valueOf(r.nextInt(50)) : "");
            if (seen.add(child)) {
                dirs.add(child);
            }
        }
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
        while (out.size() < n) {
            String dir = dirs.get(r.nextInt(dirs.size()));
            String name = (r.nextInt(3) == 0 ? "f" + r.nextInt(1000) + "_" : "") + FILES[r.nextInt(FILES.length)];
            out.add(dir + "/" + name);
        }
        return new ArrayList<>(out);
    }

    /** Writes {@code files} empty files under {@code root} at the corpus paths and returns the paths written. */
    public static List<String> writeTree(Path root, int files) throws IOException {
        List<String> paths = paths(files);
        for (String p : paths) {
            Path f = root.resolve(p);
            Files.createDirectories(f.getParent());
            Files.write(f, new byte[0]);
        }
        return paths;
    }

    /** The agent.lock of the benchmarks: the corpus patterns. */
    public static String policy() {
        StringBuilder b = new StringBuilder("version: 1\nprotect:\n");
        for (String p : PATTERNS) {
            b.append("  - \"").append(p).append("\"\n");
        }
        return b.toString();
    }
}
