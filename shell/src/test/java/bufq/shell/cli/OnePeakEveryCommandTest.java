package bufq.shell.cli;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.analysis.liveness.Liveness;
import bufq.shell.session.DefaultEngine;
import bufq.testing.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "One peak": on a module whose dump labels another step than the one with the most occupied
 * bytes (rnn-scan: label 18, peak 50), every command that says "peak" names the same step, and
 * they all read it from the one sweep the module holds.
 */
class OnePeakEveryCommandTest {
    private static Path rnn;
    private static int peak, claimed;
    private static String peakText, claimedText;

    @BeforeAll
    static void module() throws Exception {
        rnn = Corpus.require("jax-0.10.2/rnn-scan");
        HloModule m = DumpLoader.load(List.of(rnn)).get(0);
        peak = Liveness.of(m).peakTime();
        claimed = Liveness.of(m).claimedPeakTime();
        assertNotEquals(claimed, peak, "the module must be one where the label and the peak differ");
        assertTrue(peak >= 0 && claimed >= 0);
        peakText = String.valueOf(peak);
        claimedText = String.valueOf(claimed);
    }

    private static String run(String... argsThenStatements) {
        List<String> args = new ArrayList<>(List.of("--no-init"));
        for (int i = 0; i < argsThenStatements.length; i++) {
            String s = argsThenStatements[i];
            if (s.equals("--format")) args.addAll(List.of(s, argsThenStatements[++i]));
            else args.addAll(List.of("-c", s));
        }
        args.add(rnn.toString());
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), args, "");
        assertEquals(0, r.code(), r.err());
        return r.out();
    }

    /** The integer after {@code regex}'s group 1 in {@code text}. */
    private static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), () -> "no match for " + regex + " in:\n" + text);
        return m.group(1);
    }

    @Test
    void peakSummaryAndStepsSayTheSameStep() {
        assertEquals(peakText, find(run("--format", "json", "peak"), "\\{\"color\": \"all\", \"peak_time\": (\\d+),"));
        String summary = run("--format", "json", "summary");
        assertEquals(peakText, find(summary, "\"peak_time\": (\\d+)"));
        assertEquals(claimedText, find(summary, "\"claimed_peak_time\": (\\d+)"));
        assertEquals("time\n" + peakText + "\n", run("--format", "csv", "steps order by occupied_bytes desc limit 1 show time"));
    }

    @Test
    void liveAtPeakListsWhatIsLiveAtThatStep() {
        String atPeak = run("--format", "csv", "values where live at peak order by id show id");
        String atStep = run("--format", "csv", "values where live at " + peak + " order by id show id");
        String atLabel = run("--format", "csv", "values where live at claimed_peak order by id show id");
        assertEquals(atStep, atPeak);
        assertNotEquals(atLabel, atPeak);
    }

    @Test
    void timelineMarksTheStepInTextSvgAndHtml(@TempDir Path dir) throws Exception {
        assertEquals(peakText, find(run("timeline width 80"), "peak \\S+ at step (\\d+)"));
        Path svg = dir.resolve("t.svg"), html = dir.resolve("t.html");
        run("timeline --svg " + svg, "timeline --html " + html);
        for (Path p : List.of(svg, html)) {
            String text = Files.readString(p);
            assertTrue(text.contains("<line id=\"peak\""), p.toString());
            assertEquals(peakText, find(text, "peak \\S+ at step (\\d+)"));
        }
    }

    @Test
    void blameTableAndStackTreeAreForThatStep() {
        String blame = run("blame");
        assertEquals(peakText, find(blame, "bytes occupied at peak step (\\d+)"));
        assertEquals(peakText, find(blame, "stack trace breakdown, rebuilt from the model at peak step (\\d+)"));
    }

    @Test
    void diffFragmentationPeaksWhyAndScriptsSayTheSameStep() {
        String diff = run("diff 1 1 --at-peak");
        assertEquals(peakText + " " + peakText, find(diff, "peak at step (\\d+) \\(of \\d+\\) before, ").concat(" ")
                + find(diff, "before, (\\d+) \\(of \\d+\\) after"));
        assertEquals(peakText, find(run("fragmentation"), "the module's peak is step (\\d+)"));
        assertEquals(peakText, find(run("--format", "csv", "peaks"), "(?m)^1,(\\d+),"));
        // why's at-the-peak part: the first column of its one row.
        assertEquals(peakText, find(run("why xs.1"), "at the peak: [^\\n]*\\n[^\\n]*\\n-[^\\n]*\\n\\s*(\\d+)\\s"));
        assertEquals(peakText, run("js bufq.module.peak.time").strip());
        assertEquals(peakText, find(run("run " + CliTest.root().resolve("scripts/reports/top-at-peak.js")), "Peak at step (\\d+)"));
    }

    @Test
    void everyCommandReadsTheOneSweepTheModuleHolds(@TempDir Path dir) {
        // One run, one load of the module: every command that speaks of the peak or of bytes per
        // step. why, whatif and advise also sweep edited copies of the inputs (what an edit would
        // save), which is their question, so they are not in this count.
        long before = Liveness.sweepsRun();
        run("peak", "summary", "steps order by occupied_bytes desc limit 3", "instructions order by live_bytes desc limit 3",
                "values where live at peak show count()", "timeline width 80", "timeline --svg " + dir.resolve("t.svg"),
                "timeline --html " + dir.resolve("t.html"), "blame", "blame by source", "fragmentation", "peaks",
                "diff 1 1", "check", "export pprof " + dir.resolve("p.pb.gz"),
                "export perfetto " + dir.resolve("t.json"), "js bufq.module.peak.time",
                "run " + CliTest.root().resolve("scripts/reports/top-at-peak.js"));
        assertEquals(1, Liveness.sweepsRun() - before);
    }

    /** json keeps the note that says why the label is not the peak, as a field; the other formats do not add a column. */
    @Test
    void jsonKeepsThePeakNoteAsAField() {
        String note = "\"peak_note\": \"the dump labels step " + claimed + " its peak";
        assertTrue(run("--format", "json", "summary").contains(note), note);
        assertTrue(run("--format", "json", "peak").contains(note), note);
        String table = run("summary");
        assertTrue(!table.contains("peak_note") && table.contains("jit_loss: the dump labels step " + claimed), table);
        assertTrue(!run("--format", "csv", "summary").contains("peak_note"));
    }
}
