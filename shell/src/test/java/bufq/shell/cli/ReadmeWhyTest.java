package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The "Why is it live?" walk-through of docs/commands.md is what bufq prints: each statement of its code
 * blocks (typed at a prompt, or a {@code ./bufq -c '...' DUMP} line) is run on the corpus dump it
 * names and its output compared with the lines the page shows under it. Where the page leaves
 * the first parts of a {@code why} out and goes on in the next block, that block is compared with
 * the output from its first line on.
 */
class ReadmeWhyTest {
    private static final String CORPUS = Corpus.RELATIVE + "/";
    private static final Pattern BATCH = Pattern.compile("^\\$ \\./bufq -c '(.*)' (\\S+)$");

    @Test
    void walkThroughIsWhatBufqPrints() throws Exception {
        Path readme = Path.of(System.getProperty("bufq.root", "..")).resolve("docs/commands.md");
        assumeTrue(Files.isRegularFile(readme), "docs/commands.md not found at " + readme);
        List<String> lines = Files.readAllLines(readme);
        int start = lines.indexOf("## Why is it live?");
        assertTrue(start >= 0, "docs/commands.md has '## Why is it live?'");
        List<List<String>> blocks = new ArrayList<>();
        List<String> block = null;
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String l = lines.get(i);
            if (l.equals("```")) {
                if (block == null) block = new ArrayList<>();
                else { blocks.add(block); block = null; }
            } else if (block != null) block.add(l);
        }
        assertTrue(blocks.size() >= 3, "blocks: " + blocks.size());
        int statements = 0;
        String pending = null, pendingDump = null;   // a why whose output the next block goes on with
        for (List<String> b : blocks) {
            if (pending != null) {
                String got = run(pendingDump, pending);
                String first = b.get(0);
                int from = got.indexOf(first + "\n");
                assertTrue(from >= 0, "'" + pending + "' prints the page's line '" + first + "':\n" + got);
                assertEquals(String.join("\n", trimmed(b)), String.join("\n", trimmed(List.of(got.substring(from).split("\n", -1)))),
                        pending);
                statements++;
                pending = null;
                continue;
            }
            if (b.get(0).startsWith("$ ./bufq -c ")) {
                for (int i = 0; i < b.size(); ) {
                    Matcher m = BATCH.matcher(b.get(i));
                    assertTrue(m.matches(), "a './bufq -c' line: " + b.get(i));
                    int j = i + 1;
                    while (j < b.size() && !b.get(j).startsWith("$ ")) j++;
                    check(m.group(2), m.group(1), b.subList(i + 1, j));
                    statements++;
                    i = j;
                }
                continue;
            }
            assertTrue(b.get(0).startsWith("$ ./bufq "), "a session starts with '$ ./bufq DUMP': " + b.get(0));
            String dump = b.get(0).substring("$ ./bufq ".length());
            for (int i = 1; i < b.size(); ) {
                int p = b.get(i).indexOf(")> ");
                assertTrue(b.get(i).startsWith("bufq(") && p > 0, "a prompt: " + b.get(i));
                String statement = b.get(i).substring(p + 3);
                int j = i + 1;
                while (j < b.size() && !b.get(j).startsWith("bufq(")) j++;
                if (j == i + 1 && j == b.size()) {
                    pending = statement;
                    pendingDump = dump;
                } else {
                    check(dump, statement, b.subList(i + 1, j));
                    statements++;
                }
                i = j;
            }
        }
        assertTrue(pending == null, "the page ends before the output of '" + pending + "'");
        assertTrue(statements >= 5, "checked " + statements + " statements");
    }

    private static void check(String dump, String statement, List<String> expected) {
        String got = run(dump, statement);
        assertEquals(String.join("\n", trimmed(expected)), String.join("\n", trimmed(List.of(got.split("\n", -1)))), statement);
    }

    private static String run(String dump, String statement) {
        assertTrue(dump.startsWith(CORPUS), "a corpus dump: " + dump);
        String path = Corpus.require(dump.substring(CORPUS.length())).toString();
        // the walk-through is a session on a wide terminal: cells cut at maxwidth, as the page shows them
        CliTest.Result r = CliTest.run(DefaultEngine::new, new Env(Map.of("COLUMNS", "1000", "NO_COLOR", "1"), true),
                List.of("-c", statement, path), new byte[0]);
        assertEquals(0, r.code(), statement + ": " + r.err());
        return r.out();
    }

    /** Lines without trailing blanks, and no blank lines at the end. */
    private static List<String> trimmed(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String l : lines) out.add(l.stripTrailing());
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) out.remove(out.size() - 1);
        return out;
    }
}
