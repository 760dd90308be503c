package dev.ralon.bench;

import dev.ralon.policy.glob.Glob;
import dev.ralon.policy.glob.PatternException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The pattern matcher against java.nio's glob PathMatcher: {@link Corpus#PATTERNS} (12) against 1,000 corpus paths,
 * one operation = one (pattern, path) test. java.nio gets its best case: paths are {@link Path} objects made in
 * setup (ralon matches the relative path string it already has while walking). The two languages differ (see
 * docs/spec-patterns.md); here both are asked the same questions, which is the cost being compared.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MatcherBench {
    static final int PATHS = 1000;
    static final int OPS = PATHS * 12;

    Glob[] globs;
    PathMatcher[] nio;
    String[] paths;
    Path[] nioPaths;

    @Setup
    public void setUp() throws PatternException {
        List<String> ps = Corpus.PATTERNS;
        if (ps.size() * PATHS != OPS) {
            throw new IllegalStateException("OPS must be patterns x paths");
        }
        globs = new Glob[ps.size()];
        nio = new PathMatcher[ps.size()];
        for (int i = 0; i < ps.size(); i++) {
            globs[i] = Glob.compile(ps.get(i));
            nio[i] = FileSystems.getDefault().getPathMatcher("glob:" + ps.get(i));
        }
        paths = Corpus.paths(PATHS).toArray(String[]::new);
        nioPaths = new Path[paths.length];
        for (int i = 0; i < paths.length; i++) {
            nioPaths[i] = Path.of(paths[i]);
        }
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public int ralonGlob() {
        int n = 0;
        for (String p : paths) {
            for (Glob g : globs) {
                if (g.matchesExactly(p)) {
                    n++;
                }
            }
        }
        return n;
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public int nioPathMatcher() {
        int n = 0;
        for (Path p : nioPaths) {
            for (PathMatcher m : nio) {
                if (m.matches(p)) {
                    n++;
                }
            }
        }
        return n;
    }
}
