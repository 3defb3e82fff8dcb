package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.testing.Corpus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code export} through the real entry point: files appear whole, mistakes are one line. */
class ExportCommandTest {
    @TempDir Path dir;

    private static Path pair() {
        Path p = Corpus.require("jax-0.10.2/pairs/transformer-4layer");
        return p;
    }

    private static CliTest.Result bufq(String... args) {
        return CliTest.run(DefaultEngine::new, Map.of(), List.of(args), "");
    }

    @Test
    void writesAGzippedProfileAndRefusesToReplaceIt() throws Exception {
        Path f = dir.resolve("peak.pb.gz");
        CliTest.Result r = bufq("-c", "export pprof " + f + " at claimed_peak by op_name", pair().toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().startsWith("wrote " + f + ": 83 values live at step 151, 149061640 bytes occupied"), r.err());
        try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(f))) {
            assertTrue(in.readAllBytes().length > 1000);
        }
        CliTest.Result again = bufq("-c", "export pprof " + f, pair().toString());
        assertEquals(1, again.code());
        assertEquals("error: " + f + " exists; add --force to replace it\n", again.err());
        assertEquals(0, bufq("-c", "export pprof " + f + " --force", pair().toString()).code());
    }

    @Test
    void writesAPerfettoTrace() throws Exception {
        Path f = dir.resolve("trace.json");
        CliTest.Result r = bufq("-c", "export perfetto " + f, pair().toString());
        assertEquals(0, r.code(), r.err());
        // The values and allocations the trace leaves out are counted, so 278 on 33 does not
        // read as contradicting summary's 317 values and 72 allocations.
        assertEquals("wrote " + f + ": 293 steps, 278 values on 33 allocations (of 317 values and 72 allocations: 39 values"
                + " have no live range, all thread-local, and 39 allocations hold no value with one, so they are not drawn);"
                + " open it at https://ui.perfetto.dev (Open trace file) or chrome://tracing\n", r.err());
        String text = Files.readString(f);
        assertTrue(text.startsWith("{\"traceEvents\":[") && text.endsWith("}}\n"), text.substring(0, 40));
    }

    @Test
    void mistakesAreOneLineAndLeaveNoFile() throws Exception {
        Path f = dir.resolve("x.pb.gz");
        String syn = "export pprof|perfetto|parquet|duckdb FILE [at STEP] [by stack|op_name|source] [--force]";
        String[][] cases = {
                {"export pprof " + f + " at 99999", "'at' takes peak, claimed_peak or a step from 0 to 292, not '99999'"},
                {"export pprof " + f + " by line", "export by takes stack, op_name or source, not 'line'"},
                {"export svg " + f, "export takes pprof, perfetto, parquet or duckdb, not 'svg'"},
                {"export perfetto " + f + " at peak", "export perfetto takes no 'at' or 'by': it traces every step"},
                {"export pprof", "expected FILE; usage: " + syn},
                {"export pprof " + f + " depth 3", "unexpected 'depth'; usage: export pprof|perfetto FILE [at peak|claimed_peak|STEP] [by stack|op_name|source] [--force]"},
        };
        // each a caret under the word at fault in the statement, then the message
        for (String[] c : cases) {
            CliTest.Result r = bufq("-c", c[0], pair().toString());
            assertEquals(1, r.code(), c[0]);
            String[] lines = r.err().split("\n");
            assertEquals(3, lines.length, r.err());
            assertEquals(c[0], lines[0], r.err());
            assertTrue(lines[1].strip().matches("\\^+"), r.err());
            assertEquals(c[1], lines[2], c[0]);
        }
        assertFalse(Files.exists(f));
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "no temporary file left behind");
        }
    }
}
