package dev.ralon.bench;

import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.load.PolicyLoader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Loading an agent.lock of 12 patterns (read, YAML, schema, pattern compilation), warmed up. The cold, first-call cost
 * that a CLI start pays is measured by bench/run.sh on whole processes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PolicyLoadBench {
    Path dir;
    Path file;

    @Setup
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("ralon-bench-load");
        file = Files.writeString(dir.resolve("agent.lock"), Corpus.policy());
    }

    @TearDown
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    @Benchmark
    public Policy load() throws PolicyException {
        return PolicyLoader.load(file);
    }
}
