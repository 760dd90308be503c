package dev.ralon.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fixtures for bench/run.sh. {@code tree DIR N}: N files at the corpus paths and the corpus agent.lock.
 * {@code protected DIR N}: a project of N protected files (N/100 per directory under data/, all {@code *.json}) beside
 * as many unprotected ones, and a fully protected directory {@code vendor/} of N/10 files; its agent.lock protects
 * {@code data/**}{@code /*.json} and {@code vendor/}. {@code scale DIR N}: the tree of bench/scale.sh (see
 * {@link #scale}); it writes no agent.lock (the script writes one per pattern set).
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
            case "scale" -> scale(dir, n);
            default -> throw new IllegalArgumentException("usage: Fixtures tree|protected|scale DIR N");
        }
    }

    /**
     * N files, 20 per directory, in N/20 leaf directories three levels deep ({@code t<a>/s<b>/d<c>/f<k>.txt}), one
     * file in 80 a {@code .pem} (1.25%), plus {@code config/} (5 files) and {@code .github/workflows/ci.yml}: the
     * shape of the scale measurement (docs/performance.md), where only the size grows. Leaves are spread over 20
     * top directories of up to 50 middle ones, so the fan-out stays realistic at a million files.
     */
    static void scale(Path dir, int n) throws IOException {
        int dirs = Math.max(1, n / 20);
        int written = 0;
        for (int d = 0; d < dirs && written < n; d++) {
            Path leaf = dir.resolve("t" + (d % 20)).resolve("s" + ((d / 20) % 50)).resolve("d" + d);
            Files.createDirectories(leaf);
            for (int k = 0; k < 20 && written < n; k++, written++) {
                Files.write(leaf.resolve("f" + k + (written % 80 == 0 ? ".pem" : ".txt")), new byte[0]);
            }
        }
        Files.createDirectories(dir.resolve("config"));
        for (int k = 0; k < 5; k++) {
            Files.write(dir.resolve("config/c" + k + ".yml"), new byte[0]);
        }
        Files.createDirectories(dir.resolve(".github/workflows"));
        Files.write(dir.resolve(".github/workflows/ci.yml"), new byte[0]);
    }
}
