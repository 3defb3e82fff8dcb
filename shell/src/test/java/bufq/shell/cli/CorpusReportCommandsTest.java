package bufq.shell.cli;

import bufq.dump.DumpLoader;
import bufq.shell.session.DefaultEngine;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every report command runs on every corpus entry ({@link CorpusCliTest#entries()})
 * through the shell, and {@code check} finds no error. A class of its own, apart from
 * {@link CorpusCliTest}'s summaries, so the two sweeps run in the two test JVMs side by side.
 */
class CorpusReportCommandsTest {
    @TestFactory
    Stream<DynamicTest> reportCommandsOnEveryCorpusEntry() throws IOException {
        Path corpus = Corpus.require(Corpus.dir());
        return CorpusCliTest.entries().stream().map(p -> DynamicTest.dynamicTest(corpus.relativize(p).toString(), () -> {
            int modules = DumpLoader.discover(List.of(p)).size();
            List<String> args = new ArrayList<>();
            for (int i = 1; i <= modules; i++)
                args.addAll(List.of("-c", "use " + i, "-c", "peak", "-c", "timeline width 80", "-c", "map 0 width 80",
                        "-c", "padding", "-c", "fragmentation", "-c", "blame", "-c", "blame by source", "-c", "check"));
            args.add(p.toString());
            CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), args, "");
            assertEquals(0, r.code(), r.err());
            // each module's check says its summary once, with the results
            assertEquals(modules, r.out().lines().filter(l -> l.matches("(\\d+ checks \\(.*\\)|\\d+ modules checked, 0 with errors): 0 errors, .*")).count(), r.out());
        }));
    }
}
