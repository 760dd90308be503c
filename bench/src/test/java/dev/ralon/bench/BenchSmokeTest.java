package dev.ralon.bench;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Smoke run only (the build never measures): every benchmark executes once, in-process, for a fraction of a second,
 * with a 2,000-file tree, and yields a positive score. bench/run.sh runs them for real. JMH's report (its banner,
 * iterations and results) is kept off the console and shown in the failure's message when a check fails.
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
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        Collection<RunResult> results;
        try (PrintStream out = new PrintStream(report, true, StandardCharsets.UTF_8)) {
            results = new Runner(opts, OutputFormatFactory.createFormatInstance(out, VerboseMode.NORMAL)).run();
        } catch (RunnerException e) {
            throw new AssertionError("JMH failed; its report:\n" + report.toString(StandardCharsets.UTF_8), e);
        }
        String shown = "\nJMH's report:\n" + report.toString(StandardCharsets.UTF_8);
        Set<String> names = new TreeSet<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            names.add(name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1));
            assertTrue(r.getPrimaryResult().getScore() > 0,
                    name + " scored " + r.getPrimaryResult().getScore() + shown);
        }
        assertEquals(Set.of("ExpandBench.expand", "MatcherBench.nioPathMatcher", "MatcherBench.ralonGlob",
                "PolicyLoadBench.load"), names, shown);
    }

    @Test
    void bothMatchersAgreeOnTheCorpusForFilePatternsWithoutDoubleStar() throws Exception {
        MatcherBench b = new MatcherBench();
        b.setUp();
        assertTrue(b.ralonGlob() > 0, "the corpus patterns must match some corpus paths");
        assertTrue(b.nioPathMatcher() > 0, "the corpus patterns must match some corpus paths (java.nio)");
    }
}
