package dev.ralon.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fixtures for bench/run.sh. {@code tree DIR N}: N files at the corpus paths and the corpus agent.lock.
 * {@code protected DIR N}: a project of N protected files (N/100 per directory under data/, all {@code *.json}) beside
 * as many unprotected ones, and a fully protected directory {@code vendor/} of N/10 files; its agent.lock protects
 * {@code data/**}{@code /*.json} and {@code vendor/}.
 */
public final class Fixtures {
    private Fixtures() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[1]);
        int n = Integer.parseInt(args[2]);
        Files.createDirectories(dir);
        switch (args[0]) {
            case "tree" -> {
                Corpus.writeTree(dir, n);
                Files.writeString(dir.resolve("agent.lock"), Corpus.policy());
            }
            case "protected" -> {
                int perDir = 100;
                for (int i = 0; i < n; i++) {
                    Path d = dir.resolve("data/d" + (i / perDir));
                    if (i % perDir == 0) {
                        Files.createDirectories(d);
                    }
                    Files.write(d.resolve("f" + i + ".json"), new byte[0]);
                    Files.write(d.resolve("f" + i + ".txt"), new byte[0]);
                }
                for (int i = 0; i < n / 10; i++) {
                    Path d = dir.resolve("vendor/v" + (i / perDir));
                    if (i % perDir == 0) {
                        Files.createDirectories(d);
                    }
                    Files.write(d.resolve("v" + i + ".go"), new byte[0]);
                }
                Files.writeString(dir.resolve("agent.lock"), "version: 1\nprotect:\n  - \"data/**/*.json\"\n  - vendor/\n");
            }
            default -> throw new IllegalArgumentException("usage: Fixtures tree|protected DIR N");
        }
    }
}
