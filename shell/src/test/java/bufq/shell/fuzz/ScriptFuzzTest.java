package bufq.shell.fuzz;

import bufq.shell.session.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile {@code .bq} scripts through {@code bufq -f}: documented statements cut, joined
 * by continuations, laced with NUL bytes, invalid UTF-8, stray carriage returns, unclosed quotes
 * and parentheses, a 100,000-character line, and a script that runs itself. Each run ends within a
 * time bound with exit 0, 1 or 2; never an internal error; a script that is not text is refused in
 * one line.
 */
class ScriptFuzzTest {
    @TempDir Path tmp;

    static final String[] LINES = {
        "values where live at peak order by size desc limit 5", "values group by color show color, count(), sum(size)",
        "allocations where temp order by size desc", "steps order by live_bytes desc limit 5", "peak", "check", "summary",
        "padding", "fragmentation", "blame by source", "timeline width 60", "map 0 width 60", "modules", "use 1", "fields values",
        "set maxrows 3", "format csv", "format json", "help", "# a comment", "", "values where (size > 1 and", "  or temp)",
        "values where name ~ \"fus", "values \\", "where color = 0", "\\", "values where live at", "set maxrows -1",
    };

    @Test
    void hostileScriptsEndWithExitZeroOneOrTwo() throws Exception {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        Path dump = Path.of(System.getProperty("bufq.root", "..")).resolve("examples/seeds/004_0cb419b3147a3cb6.txt");
        int cases = Seeds.cases(40);
        long start = System.currentTimeMillis();
        int n = 0;
        for (; n < cases; n++) {
            Seeds.safetyNet(start, n, cases, seed);
            Path script = tmp.resolve("s" + n + ".bq");
            Files.write(script, script(r, script));
            String what = "case " + n + " (" + script + "), seed " + seed + " (replay: -Dbufq.fuzz.seed=" + seed + ")";
            CliDumpFuzzTest.Run run = CliDumpFuzzTest.bufq(what, "-f", script.toString(), dump.toString());
            String ctx = what + "\nexit " + run.code() + "\nstderr:\n" + run.err();
            assertTrue(!run.err().contains("internal error") && !run.err().contains("\tat "), ctx);
            assertTrue(run.code() == ExitCode.OK || run.code() == ExitCode.FAILED || run.code() == ExitCode.USAGE, ctx);
            if (run.code() == ExitCode.USAGE) assertTrue(run.err().contains(script + ": ") && run.err().contains("stopped"), ctx);
            Files.delete(script);
        }
        System.out.println("script fuzz: " + n + " scripts, seed " + seed);
    }

    private static byte[] script(Random r, Path self) {
        List<String> lines = new ArrayList<>();
        for (int i = 0, k = 1 + r.nextInt(12); i < k; i++) lines.add(LINES[r.nextInt(LINES.length)]);
        if (r.nextInt(10) == 0) lines.add(r.nextInt(lines.size()), "run " + self);
        if (r.nextInt(20) == 0) lines.add("values where name ~ \"" + "x".repeat(100_000) + "\"");
        String text = String.join(r.nextInt(5) == 0 ? "\r\n" : "\n", lines);
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        if (r.nextInt(6) == 0 && b.length > 0) {
            byte[] bad = {0, (byte) 0xff, (byte) 0xc3, '\r', '"', '(', '\\'};
            b = b.clone();
            b[r.nextInt(b.length)] = bad[r.nextInt(bad.length)];
        }
        return b;
    }

    @Test
    void aScriptThatRunsItselfStops() throws Exception {
        Path script = tmp.resolve("self.bq");
        Files.writeString(script, "run " + script + "\n");
        CliDumpFuzzTest.Run run = CliDumpFuzzTest.bufq("self", "-f", script.toString());
        assertEquals(ExitCode.FAILED, run.code(), run.err());
        assertTrue(run.err().contains("scripts nested too deeply"), run.err());
    }
}
