package dev.ralon.bench;

import dev.ralon.policy.Expansion;
import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.ProtectedPaths;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Expansion (the walk that lists every protected path) of a generated tree of {@code files} files with the corpus
 * policy. Set {@code -Dralon.bench.tree=DIR} to reuse a tree bench/run.sh built (same generator), else one is
 * written in setup and removed after.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ExpandBench {
    @Param("100000")
    public int files;

    Path root;
    boolean owned;
    Policy policy;

    @Setup
    public void setUp() throws IOException, PolicyException {
        String given = System.getProperty("ralon.bench.tree");
        if (given != null) {
            root = Path.of(given);
        } else {
            root = Files.createTempDirectory("ralon-bench-tree");
            owned = true;
            Corpus.writeTree(root, files);
            Files.writeString(root.resolve("agent.lock"), Corpus.policy());
        }
        policy = PolicyLoader.load(root.resolve("agent.lock"));
    }

    @TearDown
    public void tearDown() throws IOException {
        if (owned) {
            try (Stream<Path> s = Files.walk(root)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Benchmark
    public Expansion expand() throws IOException {
        return ProtectedPaths.expand(policy);
    }
}
