package bufq.export;

import bufq.analysis.liveness.Liveness;
import bufq.analysis.blame.BlameBy;
import bufq.model.HloModule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The exports read by pprof itself ({@code go tool pprof}, from the OS's golang-go, which {@code .ci/run}
 * installs): its table must be bufq's. Skipped, saying so, where Go is not installed.
 */
class GoToolPprofTest {
    private static final Pattern TOP_ROW = Pattern.compile("^\\s*(-?\\d+)B\\s+\\S+\\s+\\S+\\s+(-?\\d+)B\\s+\\S+\\s+(.+)$");

    @TempDir Path dir;

    @BeforeAll
    static void goIsInstalled() {
        boolean found = false;
        try {
            Process p = new ProcessBuilder("go", "version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            found = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            // not installed
        }
        String why = "'go' is not on the PATH: skipping the go tool pprof checks (install golang-go; .ci/run does)";
        // Maven's console prints a test's output but not an assumption's message: say it here too.
        if (!found) System.err.println("GoToolPprofTest: " + why);
        assumeTrue(found, why);
    }

    private Path export(HloModule m, String name, ProfileStacks by) throws IOException {
        Path f = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(f)) {
            PprofExport.write(m, Liveness.of(m).peakTime(), "peak", by, out);
        }
        return f;
    }

    /** {@code go tool pprof -top} in bytes, every node: function name to flat bytes. */
    private static Map<String, Long> top(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("go", "tool", "pprof", "-top", "-nodecount=1000000", "-nodefraction=0",
                "-unit=byte"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "go tool pprof did not finish");
        assertEquals(0, p.exitValue(), out);
        Map<String, Long> rows = new TreeMap<>();
        for (String line : out.split("\n")) {
            Matcher r = TOP_ROW.matcher(line);
            if (r.matches() && Long.parseLong(r.group(1)) != 0) rows.put(r.group(3).trim(), Long.parseLong(r.group(1)));
        }
        return rows;
    }

    private static Map<String, Long> nonZero(Map<String, Long> m) {
        Map<String, Long> out = new TreeMap<>(m);
        out.values().removeIf(v -> v == 0);
        return out;
    }

    @Test
    void topListsBlameBySource() throws Exception {
        HloModule m = ExportCorpus.gpuWithSources();
        Map<String, Long> blame = nonZero(ExportCorpus.blame(m, BlameBy.SOURCE));
        assertTrue(blame.size() > 2, "the module blames several source lines: " + blame);
        assertEquals(blame, top(export(m, "source.pb.gz", ProfileStacks.SOURCE).toString()));
        // The default stack's leaves are the same source lines; values without one end in their op_name.
        Map<String, Long> leaves = top(export(m, "stack.pb.gz", ProfileStacks.STACK).toString());
        for (var e : blame.entrySet()) if (!e.getKey().equals("(no source)")) assertEquals(e.getValue(), leaves.get(e.getKey()), e.getKey());
    }

    @Test
    void withWholePythonStacksLinesListBlameBySource() throws Exception {
        HloModule m = ExportCorpus.withStacks();
        Map<String, Long> blame = nonZero(ExportCorpus.blame(m, BlameBy.SOURCE));
        blame.remove("(no source)");
        assertTrue(blame.size() > 2, "the module blames several source lines: " + blame);
        Map<String, Long> byLine = new TreeMap<>();
        for (var e : top("-lines", export(m, "stack.pb.gz", ProfileStacks.STACK).toString()).entrySet()) {
            int space = e.getKey().lastIndexOf(' ');   // "function file:line"
            if (space > 0) byLine.merge(e.getKey().substring(space + 1), e.getValue(), Long::sum);
        }
        assertEquals(blame, byLine);
    }

    @Test
    void diffBaseShowsTheRematChange() throws Exception {
        Path before = export(ExportCorpus.pair(false), "before.pb.gz", ProfileStacks.STACK);
        Path after = export(ExportCorpus.pair(true), "after.pb.gz", ProfileStacks.STACK);
        Map<String, Long> diff = top("-diff_base=" + before, after.toString());
        Map<String, Long> was = nonZero(ExportCorpus.blame(ExportCorpus.pair(false), BlameBy.OP_NAME));
        Map<String, Long> is = nonZero(ExportCorpus.blame(ExportCorpus.pair(true), BlameBy.OP_NAME));
        String forward = "jit(step)/jvp()/div", remat = "jit(step)/transpose(jvp(jvp()))/checkpoint/rematted_computation/div";
        assertEquals(-was.get(forward) + is.getOrDefault(forward, 0L), diff.get(forward));
        assertEquals(is.get(remat), diff.get(remat));
        assertTrue(diff.get(forward) < -30_000_000L && diff.get(remat) > 30_000_000L, diff.toString());
    }
}
