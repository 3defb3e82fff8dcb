package bufq.shell.cli;

import bufq.shell.repl.PlainRepl;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The {@code diff} command through the real entry point: handles, paths, directories, errors. */
class DiffCommandTest {
    private static final Path ROOT = CliTest.root();
    private static final Path PAIRS = Corpus.dir().resolve("jax-0.10.2/pairs");

    record Run(int exit, String out, String err) {}

    static Run bufq(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = new Bufq(new Env(Map.of(), false), DefaultEngine::new, PlainRepl::new).run(args, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aModuleAgainstItselfByHandleHasNoChanges() {
        String seed = ROOT.resolve("examples/seeds/004_0cb419b3147a3cb6.txt").toString();
        Run r = bufq("-c", "diff 1 1", seed);
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("every value has a partner"), r.out());
        assertTrue(r.out().contains("no differences"), "op_name and source parts are empty: " + r.out());
    }

    @Test
    void rematPairReportsThePeakChangeOfOccupiedBytesBesideTheLabels() throws Exception {
        Path pairs = Corpus.require(PAIRS);
        Path before = pairs.resolve("transformer-4layer"), after = pairs.resolve("transformer-4layer-remat");
        Run r = bufq("--format", "json", "-c", "diff " + before + " " + after);
        assertEquals(0, r.exit(), r.err());
        long claimBefore = lastCumulative(before), claimAfter = lastCumulative(after);
        // The labels say remat saved 3 MiB; the bytes held at the peaks say it cost 4 MiB.
        assertTrue(r.out().contains("{\"measure\": \"claimed peak (dump's label)\", \"before\": " + claimBefore
                + ", \"after\": " + claimAfter + ","), r.out());
        r = bufq("--format", "markdown", "-c", "diff " + before + " " + after);
        assertTrue(r.out().contains("peak change +4194304 bytes"), r.out());
        assertTrue(r.out().contains("| jit(step)/jvp()/div |"), r.out());
    }

    @Test
    void aLoadedPairsDirectoryDiffsForwards() throws Exception {
        Path pairs = Corpus.require(PAIRS);
        // Natural path order: transformer-4layer, -again, -remat, so 1 -> 3 is base -> remat.
        Run r = bufq("--format", "markdown", "-c", "diff 1 3", pairs.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("peak change +4194304 bytes"), r.out());
        r = bufq("--format", "json", "-c", "modules", pairs.toString());   // json: paths whole, however long
        int base = r.out().indexOf("pairs/transformer-4layer/"), again = r.out().indexOf("pairs/transformer-4layer-again/"),
                remat = r.out().indexOf("pairs/transformer-4layer-remat/");
        assertTrue(base >= 0 && base < again && again < remat, r.out());
    }

    @Test
    void aDirectoryNamesTheFilesItSkipped(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Files.copy(ROOT.resolve("examples/seeds/004_0cb419b3147a3cb6.txt"), dir.resolve("004.txt"));
        Files.writeString(dir.resolve("notes.txt"), "what I tried\n");
        Run r = bufq("-c", "summary", dir.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals("bufq: warning: " + dir + ": skipped 1 file: notes.txt (not a buffer-assignment dump)\n", r.err());
    }

    @Test
    void differentProgramsWarnAndANewGroupReadsNew() {
        Path mlp = ROOT.resolve("examples/jax-mlp");
        Path seed = ROOT.resolve("examples/seeds/004_0cb419b3147a3cb6.txt");
        Run r = bufq("-c", "diff 1 2", mlp.toString(), seed.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("warning: the programs differ (jit_f vs "), r.err());
        assertFalse(r.out().contains(" null "), "a group new after reads 'new', not null: " + r.out());
        assertTrue(r.out().matches("(?s).*live at peak by op_name.*\\s0B\\s+\\S+\\s+\\S+\\s+new\\s.*"), r.out());
        Run same = bufq("-c", "diff 1 1", seed.toString());
        assertFalse(same.err().contains("warning"), same.err());
    }

    @Test
    void unknownSideIsACommandError() {
        String seed = ROOT.resolve("examples/seeds/004_0cb419b3147a3cb6.txt").toString();
        Run r = bufq("-c", "diff 1 nosuchmodule", seed);
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("no module 'nosuchmodule'"), r.err());
        assertEquals(1, bufq("-c", "diff 1", seed).exit(), "missing side");
    }

    /** The dump's own last "(cumulative: N bytes)" figure, read from the text, not through bufq. */
    private static long lastCumulative(Path dir) throws Exception {
        try (var files = Files.list(dir)) {
            Path live = files.filter(p -> p.getFileName().toString().endsWith("-live-range.txt")).findFirst().orElseThrow();
            long last = -1;
            for (String line : Files.readAllLines(live)) {
                int i = line.indexOf("(cumulative: ");
                if (i >= 0) last = Long.parseLong(line.substring(i + 13, line.indexOf(" bytes)", i)));
            }
            return last;
        }
    }
}
