package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cell left empty because its figure cannot be known comes with one note line naming the column
 * and saying why: code_bytes (no dump gives it), weights without the Used values part, oom of a
 * paste with no dump loaded. The notes' wording may change; that there is one may not.
 */
class UnknownFigureNotesTest {
    private static CliTest.Result run(String... args) {
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of(args), "");
        assertEquals(0, r.code(), r.err());
        return r;
    }

    /** The lines under the last table (after its row count) that name {@code column}. */
    private static List<String> notesOn(String out, String column) {
        java.util.regex.Matcher footer = java.util.regex.Pattern.compile("\\(\\d+ rows?\\)\n").matcher(out);
        int end = -1;
        while (footer.find()) end = footer.end();
        String under = out.substring(end);
        return under.lines().filter(l -> l.contains(column)).toList();
    }

    /** The cell of {@code column} in the first row of a table printed whole (a pipe). */
    private static String cell(String out, String column) {
        List<String> lines = out.lines().toList();
        for (int i = 0; i + 2 < lines.size(); i++) {
            if (!lines.get(i + 1).matches("-+( +-+)*")) continue;
            int at = lines.get(i).indexOf(column);
            if (at < 0) continue;
            String row = lines.get(i + 2);
            int end = Math.min(row.length(), at + column.length());
            // a column's cells end where its header ends (numbers right-aligned) or start where it starts
            return row.substring(Math.min(at, row.length()), end).strip();
        }
        throw new AssertionError("no column " + column + " in:\n" + out);
    }

    @Test
    void codeBytesSaysNoDumpGivesIt() {
        String out = run("--no-init", "-c", "modules", CliTest.root().resolve("examples/jax-mlp").toString()).out();
        assertEquals("", cell(out, "code_bytes"), out);
        assertEquals(1, notesOn(out, "code_bytes").size(), out);
    }

    @Test
    void weightsWithoutTheUsedValuesPartAreUnknownAndSaySo() {
        String dir = Corpus.require("jax-0.10.2/multi-module-dir-analysis-off").toString();
        String out = run("--no-init", "-c", "modules", dir).out();
        assertEquals("", cell(out, "weights_bytes"), out);
        assertEquals("", cell(out, "optimizer_bytes"), out);
        assertEquals(1, notesOn(out, "weights_bytes").size(), out);
        // with the part, the figure is there and no note
        String mlp = run("--no-init", "-c", "modules", CliTest.root().resolve("examples/jax-mlp").toString()).out();
        assertTrue(!cell(mlp, "weights_bytes").isEmpty() && notesOn(mlp, "weights_bytes").isEmpty(), mlp);
    }

    @Test
    void oomOfAPasteWithoutADumpSaysWhatWouldJoinIt(@TempDir Path tmp) throws Exception {
        Path log = tmp.resolve("err.log");
        Files.writeString(log, "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4608000000 bytes.\n");
        String out = run("--no-init", "-c", "oom " + log).out();
        List<String> problems = new java.util.ArrayList<>();
        Screen.nulls("table", "oom", out, problems);
        assertEquals(List.of(), problems);
        java.util.regex.Matcher footer = java.util.regex.Pattern.compile("\\(\\d+ rows?\\)\n").matcher(out);
        int end = -1;
        while (footer.find()) end = footer.end();
        String under = out.substring(end);
        assertTrue(under.lines().anyMatch(l -> l.contains("load")), "a note saying what to load:\n" + out);
    }
}
