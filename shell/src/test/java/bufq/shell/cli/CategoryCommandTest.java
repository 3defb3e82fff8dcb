package bufq.shell.cli;

import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code blame by category}, {@code blame by path}, {@code set category} and {@code bufq.category} through the real entry point. */
class CategoryCommandTest {
    static DiffCommandTest.Run bufq(String... args) { return DiffCommandTest.bufq(args); }

    static String adam() { return Corpus.require("jax-0.10.2/train/mlp-adam").toString(); }

    @Test
    void theStatementsOfEachRowListItsValues() {
        DiffCommandTest.Run r = bufq("--format", "json", "-c", "blame by category", adam());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\"category\": \"optimizer\", \"bytes\": 25190400, \"share\": 0.41"), r.out());
        DiffCommandTest.Run q = bufq("--format", "csv", "-c", "values where category = \"optimizer\" and live at peak show count(), sum(size)", adam());
        assertTrue(q.out().contains("12,25190400"), q.out());
        DiffCommandTest.Run uses = bufq("-c", "uses where category = \"weights\" and value = 458 show value, category", adam());
        assertTrue(uses.out().contains("458  weights"), uses.out());
    }

    @Test
    void aRuleComesFirstAndAMistakeInItIsShownWithACaret() {
        DiffCommandTest.Run r = bufq("-c", "set category copies = opcode = \"copy\" and category = \"weights\"", "-c", "set category",
                "-c", "blame by category", "-c", "set category off", "-c", "values where category = \"copies\" show count()", adam());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("1  set category copies = opcode = \"copy\" and category = \"weights\""), r.out());
        assertTrue(r.out().matches("(?s).*\\ncopies +12\\.0MiB .*"), r.out());
        assertTrue(r.out().matches("(?s).*count\\(\\)\\s+-+\\s+0\\n.*"), "off drops the rule: " + r.out());
        DiffCommandTest.Run bad = bufq("-c", "set category big = sise > 1MiB", adam());
        assertTrue(bad.err().contains("set category big = sise > 1MiB\n                   ^^^^\nunknown field 'sise'"), bad.err());
        DiffCommandTest.Run name = bufq("-c", "set category 9x = size > 1", adam());
        assertTrue(name.err().contains("a category name is a word"), name.err());
    }

    @Test
    void aScriptsFunctionNamesCategoriesAndItsFailureNamesTheValue() {
        DiffCommandTest.Run r = bufq("-c", "js bufq.category(v => v.opcode === 'copy' ? 'copies' : null)", "-c", "blame by category", adam());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().matches("(?s).*\\ncopies +12\\.0MiB .*bufq\\.category\\(fn\\).*"), r.out());
        DiffCommandTest.Run bad = bufq("-c", "js bufq.category(v => 3)", "-c", "blame by category", adam());
        assertTrue(bad.err().contains("returned 3 for params_0___w__.1; expected a category name or null"), bad.err());
    }

    @Test
    void pathsAtAStepAndTheirErrors() {
        DiffCommandTest.Run r = bufq("-c", "blame by path at 0 depth 2", adam());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("bytes occupied at step 0 "), r.out());
        assertTrue(r.out().contains("params[*]"), r.out());
        DiffCommandTest.Run at = bufq("-c", "blame by category at 999", adam());
        assertTrue(at.err().contains("'at' takes peak, claimed_peak or a step"), at.err());
        DiffCommandTest.Run by = bufq("-c", "blame by kind", adam());
        assertTrue(by.err().contains("category, path or sharding"), by.err());
        DiffCommandTest.Run op = bufq("-c", "blame at 0", adam());
        assertTrue(op.out().contains("bytes occupied at step 0 ") && !op.out().contains("stack trace breakdown"), op.out());
    }

    /** The Adam step without its Used values file: no op_name at all, so allocation kinds decide, and a line says so. */
    @Test
    void aDumpWithoutInstructionsFallsBackToAllocationKindsAndSaysSo(@TempDir Path dir) throws Exception {
        try (Stream<Path> s = Files.list(Path.of(adam()))) {
            for (Path f : s.toList()) if (!f.getFileName().toString().endsWith("-values.txt")) Files.copy(f, dir.resolve(f.getFileName()));
        }
        DiffCommandTest.Run named = bufq("--format", "csv", "-c", "blame by category", adam());
        DiffCommandTest.Run r = bufq("--format", "csv", "-c", "blame by category", dir.toString());
        assertEquals(0, r.exit(), r.err());
        DiffCommandTest.Run table = bufq("-c", "blame by category", dir.toString());
        assertTrue(table.out().contains("no op_name metadata (the dump has no Used values section): categories fall back to allocation kinds"),
                table.out());
        // The entry parameters are one row: the weights, optimizer state and inputs of the named dump together, but for
        // XLA's three 4 MiB copies of weights, which the dataflow calls weights and the allocation kinds temporaries.
        long parameters = bytes(r.out(), "parameters"), copies = 3L * 4 * 1024 * 1024;
        assertEquals(bytes(named.out(), "weights") + bytes(named.out(), "optimizer") + bytes(named.out(), "inputs") - copies, parameters);
        assertTrue(bytes(r.out(), "temporaries") >= copies, r.out());
        assertEquals(bytes(named.out(), "outputs"), bytes(r.out(), "outputs"));
    }

    private static long bytes(String csv, String category) {
        for (String line : csv.split("\n")) if (line.startsWith(category + ",")) return Long.parseLong(line.split(",")[1]);
        throw new AssertionError("no " + category + " in " + csv);
    }
}
