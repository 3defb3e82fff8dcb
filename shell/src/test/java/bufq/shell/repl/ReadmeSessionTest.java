package bufq.shell.repl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The README's session is a real one: typing its statements into the REPL prints what it shows. */
class ReadmeSessionTest {
    @TempDir Path state;

    @Test
    void readmeSessionIsWhatTheShellPrints() throws IOException {
        Path readme = Path.of(System.getProperty("bufq.root", "..")).resolve("README.md");
        assumeTrue(Files.isRegularFile(readme), "README.md not found at " + readme);
        List<String> lines = Files.readAllLines(readme);
        int start = lines.indexOf("## A session");
        assertTrue(start >= 0, "README has '## A session'");
        int open = lines.subList(start, lines.size()).indexOf("```") + start;
        int close = lines.subList(open + 1, lines.size()).indexOf("```") + open + 1;
        List<String> block = lines.subList(open + 2, close);  // after the "$ ./bufq ..." line

        StringBuilder typed = new StringBuilder();
        for (String l : block) {
            if (l.endsWith("> ^D")) break;
            int p = l.indexOf(")> ");
            if (l.startsWith("bufq(") && p > 0) typed.append(l.substring(p + 3)).append('\n');
            else if (l.startsWith(JLineRepl.CONTINUATION)) typed.append(l.substring(JLineRepl.CONTINUATION.length())).append('\n');
        }
        Transcript t = new Transcript(state);
        t.env.put("NO_COLOR", "1");
        t.errToScreen = true;
        String screen = t.run(typed.toString());
        List<String> got = new ArrayList<>();
        for (String l : screen.split("\n", -1)) got.add(l.stripTrailing());
        List<String> want = new ArrayList<>();
        for (String l : block) want.add(l.equals("bufq(004_0cb419b3147a3cb6)> ^D") ? "bufq(004_0cb419b3147a3cb6)>" : l.stripTrailing());
        while (!got.isEmpty() && got.get(got.size() - 1).isEmpty()) got.remove(got.size() - 1);
        assertEquals(String.join("\n", want), String.join("\n", got));
    }
}
