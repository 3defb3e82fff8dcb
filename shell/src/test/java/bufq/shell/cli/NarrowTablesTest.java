package bufq.shell.cli;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every command's table at 80 and 120 columns holds every statement it offers whole (the
 * statements are read from the same command's json), and no note under a table names a column the
 * table left out.
 */
class NarrowTablesTest {
    /** The json keys whose values are statements to run (ColumnType.STATEMENT columns). */
    static final Set<String> STATEMENT_KEYS = Set.of("whatif", "next", "then", "statement");
    private static final Context JS = Context.create("js");

    @AfterAll
    static void close() { JS.close(); }

    @TestFactory
    Stream<DynamicTest> everyTableAt80And120Columns() {
        return OutputSweep.entries().stream().map(e -> DynamicTest.dynamicTest(e, () -> {
            Path entry = OutputSweep.path(e);
            Map<String, String> json = OutputSweep.outputs(entry, "json", 0);
            for (int width : new int[] {80, 120}) {
                Map<String, String> tables = OutputSweep.outputs(entry, "table", width);
                for (Map.Entry<String, String> t : tables.entrySet()) {
                    String where = e + ", " + t.getKey() + " at " + width + " columns:\n" + t.getValue();
                    Set<String> statements = new LinkedHashSet<>(), keys = new LinkedHashSet<>();
                    String doc = json.get(t.getKey());
                    if (!doc.isBlank()) collect(JS.eval("js", "JSON.parse").execute(doc), null, statements, keys);
                    // a statement wider than the terminal goes on over indented lines, broken at spaces
                    String joined = t.getValue().replaceAll("\n {6}(?=\\S)", " ").replaceAll("\n +\\| ", " ");
                    for (String s : statements) assertTrue(joined.contains(s), "cut statement '" + s + "' in " + where);
                    danglingNotes(t.getValue(), keys, width, where);
                }
            }
        }));
    }

    /** The statements (values of {@link #STATEMENT_KEYS}) and every key in a parsed json document. */
    static void collect(Value v, String key, Set<String> statements, Set<String> keys) {
        if (v.hasArrayElements()) {
            for (long i = 0; i < v.getArraySize(); i++) collect(v.getArrayElement(i), key, statements, keys);
        } else if (v.hasMembers() && !v.isString()) {
            for (String k : v.getMemberKeys()) {
                keys.add(k);
                collect(v.getMember(k), k, statements, keys);
            }
        } else if (v.isString() && STATEMENT_KEYS.contains(key)) {
            statements.add(v.asString());
        }
    }

    /**
     * Fails on a note (a line under a table's row count) that names, as its subject, a column of the
     * command's data that no header of the output shows. The table's own line on what it left out
     * is the one note that names them on purpose.
     */
    static void danglingNotes(String text, Set<String> keys, int width, String where) {
        String[] lines = text.split("\n", -1);
        Set<String> shown = new LinkedHashSet<>();
        for (int i = 0; i + 1 < lines.length; i++)
            if (lines[i + 1].matches("-+( +-+)*")) shown.addAll(List.of(lines[i].trim().split(" +")));
        // a table too wide for the width prints one field per line, each under its name
        for (String l : lines) if (l.matches("[^ |]+ +\\|( .*)?")) shown.add(l.substring(0, l.indexOf(' ')));
        List<String> notes = new ArrayList<>();
        boolean under = false;
        for (String l : lines) {
            if (l.matches("\\(\\d+ rows?\\)")) under = true;
            else if (l.isEmpty()) under = false;
            else if (under && !notes.isEmpty() && continues(notes.get(notes.size() - 1), l, width))
                notes.set(notes.size() - 1, notes.get(notes.size() - 1) + "\n" + l);
            else if (under) notes.add(l);
        }
        for (String n : notes) {
            Matcher m = Pattern.compile("^(.*) printed whole under each row").matcher(n.replace('\n', ' '));
            if (m.find()) shown.addAll(List.of(m.group(1).split(", ")));
        }
        notes.removeIf(n -> n.contains(" left out") || n.contains(" cut with …") || n.contains("printed whole under"));
        for (String key : keys) {
            if (shown.contains(key) || key.length() < 3) continue;
            Pattern named = Pattern.compile("(^|[\\s'`(])" + Pattern.quote(key) + "([\\s'`),:]|$)");
            for (String wrapped : notes) {
                String n = wrapped.replace('\n', ' ');
                if (named.matcher(n).find() && (n.matches(Pattern.quote(key) + "( (and|or|is|are|runs|says|holds) |:).*")
                        || n.contains("'" + key + "'") || n.contains("`" + key + "`")))
                    fail("note names the column '" + key + "' that is not shown: " + n + "\nin " + where);
            }
        }
    }

    /** Whether {@code line} is the rest of {@code note} wrapped at {@code width}: its first word did not fit after it. */
    private static boolean continues(String note, String line, int width) {
        int last = note.lastIndexOf('\n') + 1;   // notes joined so far: only the last line counts
        String[] words = line.split(" ", 2);
        return note.length() - last + 1 + words[0].length() > width;
    }
}
