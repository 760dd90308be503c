package dev.ralon.bench;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Smoke run only (the build never measures): every benchmark executes once, in-process, for a fraction of a second,
 * with a 2,000-file tree, and yields a positive score. bench/run.sh runs them for real.
 */
class BenchSmokeTest {
    @Test
    void everyBenchmarkRuns() throws Exception {
        Options opts = new OptionsBuilder()
                .include("dev\\.ralon\\.bench\\..*Bench\\.")
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(200))
                .param("files", "2000")
                .shouldFailOnError(true)
                .build();
        Collection<RunResult> results = new Runner(opts).run();
        Set<String> names = new TreeSet<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            names.add(name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1));
            assertTrue(r.getPrimaryResult().getScore() > 0, name + " scored " + r.getPrimaryResult().getScore());
        }
        assertEquals(Set.of("ExpandBench.expand", "MatcherBench.nioPathMatcher", "MatcherBench.ralonGlob",
                "PolicyLoadBench.load"), names);
    }

    @Test
    void bothMatchersAgreeOnTheCorpusForFilePatternsWithoutDoubleStar() throws Exception {
        MatcherBench b = new MatcherBench();
        b.setUp();
        assertTrue(b.ralonGlob() > 0, "the corpus patterns must match some corpus paths");
        assertTrue(b.nioPathMatcher() > 0, "the corpus patterns must match some corpus paths (java.nio)");
    }
}
