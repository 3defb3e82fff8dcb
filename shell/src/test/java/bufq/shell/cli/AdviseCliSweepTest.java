package bufq.shell.cli;

import bufq.analysis.liveness.Liveness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.model.HloModule;
import bufq.shell.session.DefaultEngine;
import bufq.testing.Corpus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code advise} through the command line on every module of the corpus and the seeds: exit 0, no
 * stack trace; a module without live ranges gets one line saying so (not an error).
 */
class AdviseCliSweepTest {
    @TestFactory
    Stream<DynamicTest> adviseRunsOnEveryCorpusModule() throws Exception {
        return Corpus.sweep((p, modules) -> {
            List<String> args = new ArrayList<>();
            for (HloModule m : modules) args.addAll(List.of("-c", "use " + m.handle(), "-c", "advise"));
            args.add(p.toString());
            CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), args, "");
            assertEquals(0, r.code(), r.err());
            assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
            long without = modules.stream().filter(m -> Liveness.of(m).peakTime() < 0).count();
            assertEquals(without, r.err().lines().filter(l -> l.contains("has no live ranges, so no peak to lower")).count(), r.err());
            assertEquals(modules.size() - without, r.out().lines().filter(l -> l.startsWith("advice for ")).count(), r.out());
        });
    }

    /** The line a dump without live ranges gets, and its exit code. */
    @TestFactory
    Stream<DynamicTest> aDumpWithoutLiveRangesIsNotAnError() throws Exception {
        Path dir = Corpus.require("jax-0.10.2/multi-module-dir-analysis-off");
        return Stream.of(DynamicTest.dynamicTest(dir.getFileName().toString(), () -> {
            CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of("-c", "advise", dir.toString()), "");
            assertEquals(0, r.code(), r.err());
            // the module it chose of the nine, then why it has nothing to advise
            assertEquals(2, r.err().lines().count(), r.err());
            assertTrue(r.err().lines().findFirst().orElseThrow().contains("--module NAME picks another"), r.err());
            assertTrue(r.err().contains("has no live ranges, so no peak to lower and no rule applies"), r.err());
        }));
    }
}
