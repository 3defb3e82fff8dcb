package bufq.shell.cli;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Json is data. Every command's json over the fixtures (and the corpus when here) holds
 * no number inside a string: no figure printed for people ({@code "4.00M (...)"}, {@code "39%"}),
 * no list rendered as one string ({@code "10 splash…{3}, +2 more"}), no name glued to its size
 * ({@code "w1 16.0MiB"}). Statements to run and prose (a finding, a note) may name figures.
 */
class JsonIsDataTest {
    private static final Context JS = Context.create("js");

    /** A figure alone: a count, a size with its unit, a percentage, maybe with a detail in parentheses. */
    static final Pattern FIGURE = Pattern.compile(
            "[~≈<>≤≥+-]?\\d[\\d,]*(\\.\\d+)?\\s*(%|[KMGTPE]i?B?|B|bytes?)?(\\s*\\(.*\\))?");
    /** A size with its unit anywhere in the text. */
    static final Pattern SIZE = Pattern.compile("\\d(\\.\\d+)?\\s?(KiB|MiB|GiB|TiB|[KMGT]B?|B)\\b");
    /** What a display cuts a list to. */
    static final Pattern CUT_LIST = Pattern.compile("…|\\+\\d+ more");

    /** Keys whose strings are digits on purpose: the dump's own zero-padded module id ("0007"). */
    static final List<String> DIGITS_ON_PURPOSE = List.of("module_id");

    @AfterAll
    static void close() { JS.close(); }

    /** Why {@code s} (the value of {@code key}) is display text, or null when it is data. */
    static String displayText(String key, String s) {
        if (NarrowTablesTest.STATEMENT_KEYS.contains(key)) return null;
        String t = s.strip();
        // a setting as the user typed it, where a figure came from (fit's capacity source); its bytes are beside it
        if (t.startsWith("set ")) return null;
        // a size as a message printed it, its byte counts beside it: {"printed": "17.79M", "low": N, "high": M}
        if (key.equals("printed")) return null;
        if (t.isEmpty()) return null;
        if (FIGURE.matcher(t).matches() && !(DIGITS_ON_PURPOSE.contains(key) && t.matches("\\d+"))) return "a figure as a string";
        boolean prose = t.split("\\s+").length >= 5;
        if (!prose && SIZE.matcher(t).find()) return "a size inside a name";
        if (!prose && CUT_LIST.matcher(t).find()) return "a list cut for display";
        if (t.matches("\\d[\\d,]*\\s+\\S.*….*")) return "a count and a cut list";
        return null;
    }

    @Test
    void theRuleTellsDataFromDisplayText() {
        assertNotNull(displayText("capacity", "17.79M (18,648,925..18,660,432 B)"));
        assertNotNull(displayText("size", "4.00M (...)"));
        assertNotNull(displayText("values", "10 splash…{3}, 6 …, +2 more"));
        assertNotNull(displayText("top", "jit(f)/transpose(jvp())/dot_general 16.0MiB"));
        assertNotNull(displayText("share", "39.0%"));
        assertNull(displayText("shape", "f32[4096,1024]{1,0}"));
        assertNull(displayText("finding", "3 parameters are not donated but match an output's shape and dtype: pass donate_argnums"));
        assertNull(displayText("whatif", "whatif donate where id in (63, 67, 61)"));
        assertNull(displayText("module_id", "0007"));
        assertNull(displayText("value", "dot_general.9"));
        assertNull(displayText("source", "set capacity 16GiB"));
    }

    /**
     * A script reads a printed size's byte counts as numbers too, and cannot change them: an exact
     * figure is its number, as json writes it; a rounded one is {printed, low, high}.
     */
    @Test
    void scriptsGetPrintedSizesAsNumbers() {
        String js = "js var e = bufq.oom('RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4608000000 bytes.')"
                + ".out_of_memory_messages[0].requested; print(typeof e, String(e + 1));"
                + " var q = bufq.oom('RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 8.00M."
                + " That was not possible. There are 6.43M free.').out_of_memory_messages[0].requested;"
                + " print(String(q.low), String(q.high), q.printed);"
                + " try { q.low = 3 } catch (x) { print(x.message) }";
        CliTest.Result r = CliTest.run(bufq.shell.session.DefaultEngine::new, Map.of(),
                List.of("-c", js, CliTest.root().resolve("examples/jax-mlp").toString()), "");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("number 4608000001\n"), r.out());
        assertTrue(r.out().contains("8383488 8394751 8.00M\n"), r.out());
        assertTrue(r.out().contains("read-only"), r.out());
    }

    @TestFactory
    Stream<DynamicTest> everyCommandsJsonIsData() {
        return OutputSweep.entries().stream().map(e -> DynamicTest.dynamicTest(e, () -> {
            List<String> found = new ArrayList<>();
            for (Map.Entry<String, String> r : OutputSweep.outputs(OutputSweep.path(e), "json", 0).entrySet()) {
                // set lists each setting's text as 'set NAME VALUE' takes it back (16KiB, auto, none)
                if (r.getValue().isBlank() || r.getKey().equals("set")) continue;
                walk(JS.eval("js", "JSON.parse").execute(r.getValue()), r.getKey(), "", found);
            }
            assertTrue(found.isEmpty(), e + ": " + found.size() + " strings hold numbers:\n" + String.join("\n", found));
        }));
    }

    private static void walk(Value v, String statement, String path, List<String> found) {
        if (v.hasArrayElements()) {
            for (long i = 0; i < v.getArraySize(); i++) walk(v.getArrayElement(i), statement, path + "[" + i + "]", found);
        } else if (v.isString()) {
            String key = path.replaceAll("(\\[\\d+])+$", "").replaceAll(".*\\.", "");
            String why = displayText(key, v.asString());
            if (why != null && found.size() < 40) found.add("  " + statement + ": " + path + " = \"" + v.asString() + "\" (" + why + ")");
        } else if (v.isNumber() && path.matches(".*[.](pct|percent|of_[a-z]+|[a-z_]+_pct)$") && found.size() < 40) {
            found.add("  " + statement + ": " + path + " is a fraction whose key does not say 'share'");
        } else if (v.hasMembers()) {
            for (String k : v.getMemberKeys()) walk(v.getMember(k), statement, path + "." + k, found);
        }
    }
}
