package bufq.shell.script;

import bufq.shell.cli.Bufq;
import bufq.shell.repl.PlainRepl;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.session.ExitCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Scripts that re-enter the engine (a field that prints or queries its own row, a tiling model whose
 * query needs padded sizes) and results no cell can hold: each is a located, plain message, the
 * statement alone fails, and JavaScript keeps working afterwards (no class left broken).
 */
class ReentryTest {
    final Harness h = new Harness().load(Harness.root().resolve("examples/jax-mlp"));

    @AfterEach
    void close() throws Exception { h.close(); }

    /** The session's JavaScript still works: a broken class would fail every later call. */
    private void stillWorks() {
        assertEquals("2\n", h.ok("js 1 + 1"));
        h.ok("js bufq.field('values', 'twice', v => v.size * 2, {type: 'int'})");
        assertTrue(h.ok("values where id = 0 show twice").contains("twice"), "a new field works");
        h.ok("js try { bufq.query('values where nosuch'); } catch (e) { print('caught'); }");
    }

    @Test
    void fieldThatPrintsItsRowIsRefusedAtItsLine() {
        h.ok("js bufq.field('values', 'p', v => { print(v); return 1 }, {type: 'int'})");
        String e = h.fails("values show p limit 1");
        assertTrue(e.contains("js:1:34: field 'p' of values is needed while it is being computed"), e);
        assertFalse(e.contains("StackOverflowError") || e.contains("\tat "), e);
        stillWorks();
    }

    @Test
    void tilingWhoseQueryNeedsTheTilingIsRefused() {
        h.ok("js bufq.tiling('q', s => { bufq.query('values show sum(padded_size)'); return s.logical_bytes })");
        h.ok("set tiling q");
        String e = h.fails("values show sum(padded_size)");
        assertTrue(e.contains("tiling model 'q' failed for f32[") && e.contains("js:1:25: query 'values show sum(padded_size)'")
                && e.contains("tiling model 'q' is needed while it is being computed"), e);
        assertFalse(e.contains("internal error"), e);
        h.ok("set tiling tpu");
        stillWorks();
    }

    @Test
    void fieldQueryingItselfAfterAnEarlierErrorIsRefused() {
        assertTrue(h.fails("js null.x").contains("TypeError"));
        h.ok("js bufq.field('values', 'q', v => bufq.query('values where id = 0 show q').length, {type: 'int'})");
        String e = h.fails("values show q limit 1");
        assertTrue(e.contains("field 'q' failed: js:1:32: query 'values where id = 0 show q'")
                && e.contains("field 'q' of values is needed while it is being computed"), e);
        stillWorks();
    }

    @Test
    void fieldsReadingEachOtherAreRefused() {
        h.ok("js bufq.field('values', 'a', v => v.b, {type: 'int'}); bufq.field('values', 'b', v => v.a, {type: 'int'})");
        String e = h.fails("values show a limit 1");
        assertTrue(e.contains("field 'a' of values is needed while it is being computed"), e);
        stillWorks();
    }

    @Test
    void fieldsNestedTooDeepAreRefusedInOneShortLine() {
        StringBuilder js = new StringBuilder("js ");
        for (int i = 0; i < 30; i++) {
            js.append("bufq.field('values', 'f").append(i).append("', v => bufq.query('values where id = 0 show f")
                    .append(i + 1).append("').length, {type: 'int'}); ");
        }
        h.ok(js.append("bufq.field('values', 'f30', v => 1, {type: 'int'})").toString());
        String e = h.fails("values show f0 limit 1");
        String last = e.strip().substring(e.strip().lastIndexOf('\n') + 1);
        assertTrue(last.matches("field 'f0' failed: js:1:\\d+: too deep: field 'f1[67]' of values would nest scripts calling bufq"
                + " calling scripts more than 16 deep"), last);
        stillWorks();
    }

    @Test
    void runawayRecursionEndsTheStatementOnly() {
        String e = h.fails("js function f(n) { return bufq.query('values show count()').length + f(n + 1) } f(0)");
        assertTrue(e.contains("error: js:1:"), e);
        assertFalse(e.contains("\tat "), e);
        assertTrue(e.contains("script stopped: it called itself too deep (through bufq.query, a field or a tiling model?) and ran out of stack"), e);
        assertFalse(e.contains("MiB of memory"), "a stack overflow is not the heap limit: " + e);
        stillWorks();
    }

    @Test
    void cyclicAndDeepArraysAreRefusedWithTheFieldsPlace() {
        h.ok("js const cyc = [1]; cyc.push(cyc); bufq.field('values', 'cyc', v => cyc, {type: 'list'})");
        String e = h.fails("values show cyc limit 1");
        assertTrue(e.contains("field 'cyc' failed: js:1:61: field 'cyc' of values returned arrays nested more than 64 deep,"
                + " or an array that contains itself"), e);
        h.ok("js let deep = []; for (let i = 0; i < 200000; i++) deep = [deep];"
                + " bufq.field('values', 'deep', v => deep, {type: 'list'})");
        e = h.fails("values show deep limit 1");
        assertTrue(e.contains("field 'deep' of values returned arrays nested more than 64 deep"), e);
        assertFalse(e.contains("StackOverflowError") || e.contains("internal error"), e);
        stillWorks();
    }

    @Test
    void bigIntIsAPlainMessage() {
        h.ok("js bufq.field('values', 'big', v => 2n ** 100n + 1n, {type: 'int'})");
        String e = h.fails("values show big limit 1");
        assertTrue(e.contains("js:1:29: field 'big' of values returned a number too large for a double (a BigInt?)"), e);
        h.ok("js bufq.field('values', 'small', v => 7n, {type: 'int'})");
        assertTrue(h.ok("values show small limit 1").contains("7"), "a BigInt that fits is a number");
    }

    @Test
    void bytesBeyondLongAreNullAsDocumented() {
        h.ok("js bufq.field('values', 'huge', v => 2 ** 80, {type: 'bytes'})");
        String o = h.ok("values show huge limit 1");
        assertFalse(o.contains("EiB"), o);
        // null: the table prints it as an empty cell, json as null
        assertFalse(o.contains("1208925819614629174706176"), o);
        h.ok("set format json");
        String json = h.ok("values show huge limit 1");
        assertTrue(json.matches("(?s).*\"huge\": ?null.*"), json);
    }

    @Test
    void tilingReturningNaNOrAStringIsLocatedInQueriesAndPadding() {
        Harness seed = new Harness().load(Harness.seed(4)); // a TPU dump with padded values
        try {
            seed.ok("js bufq.tiling('nan', s => NaN); bufq.tiling('text', s => '12')");
            // a broken model is refused, located, at set time rather than at the next query
            String e = seed.fails("set tiling nan");
            assertTrue(e.contains("error: js:1:20: tiling model 'nan' returned NaN for "), e);
            assertTrue(e.contains("; expected a whole number of bytes >= 0"), e);
            assertFalse(e.contains("internal error"), e);
            e = seed.fails("set tiling text");
            assertTrue(e.contains("js:1:51: tiling model 'text' returned \"12\" for "), e);
            assertTrue(seed.ok("padding").length() > 0, "the tiling stayed tpu and padding runs");
        } finally {
            try {
                seed.close();
            } catch (Exception ignored) {
                // nothing was written
            }
        }
    }

    @Test
    void theRunGoesOnAndPublishesItsOutputFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("out.txt");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        String[] args = {"--no-init", "-c", "output " + file, "-c", "values show count()",
                "-c", "js bufq.field('values','p', v => { print(v); return 1 }, {type:'int'})",
                "-c", "values show p limit 1", "-c", "js print('after')",
                Harness.root().resolve("examples/jax-mlp").toString()};
        int code = new Bufq(new Env(Map.of(), false), DefaultEngine::new, PlainRepl::new).run(args,
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(ExitCode.FAILED, code, e);
        assertTrue(e.contains("is needed while it is being computed"), e);
        String written = Files.readString(file);
        assertTrue(written.contains("count()") && written.contains("26") && written.contains("after"), written);
    }
}
