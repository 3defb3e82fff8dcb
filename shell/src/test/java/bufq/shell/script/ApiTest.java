package bufq.shell.script;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The bufq global on a real seed dump: rows, lookups, queries, fields, tilings, checks, print. */
class ApiTest {
    final Harness h = new Harness().load(Harness.seed(0));

    @AfterEach
    void close() throws Exception { h.close(); }

    @Test
    void moduleRowsCarryQueryFields() {
        assertEquals("11\n", h.ok("js bufq.module.values[0].id"));
        assertEquals("add.3\n", h.ok("js bufq.module.values[0].label"));
        assertEquals("4096\n", h.ok("js bufq.module.value(11).size"));
        assertEquals("thread-local\n", h.ok("js bufq.module.allocation(0).kind"));
        assertEquals("null\n", h.ok("js bufq.module.value(999999)"));
        String n = h.ok("js bufq.module.values.length").strip();
        assertTrue(Integer.parseInt(n) > 5, n);
        assertEquals("true\n", h.ok("js Object.keys(bufq.module.values[0]).includes('padded_size')"));
        assertEquals("true\n", h.ok("js typeof bufq.module.peak.time === 'number' && bufq.module.peak.bytes > 0"));
    }

    @Test
    void rowsAreReadOnly() {
        String e = h.fails("js bufq.module.values[0].size = 5");
        assertTrue(e.contains("read-only"), e);
        e = h.fails("js bufq.module.values[0] = 5");
        assertTrue(e.contains("read-only"), e);
    }

    @Test
    void queryReturnsRows() {
        assertEquals("[\"add.3\"]\n", h.ok("js JSON.stringify(bufq.query('values where id = 11').map(r => r.label))"));
        String e = h.fails("js bufq.query('values where nope > 1')");
        assertTrue(e.contains("js:1:"), e);
        assertTrue(e.contains("nope"), e);
    }

    @Test
    void printGoesToOutput() {
        assertEquals("a 1 true\n", h.ok("js print('a', 1, true)"));
        assertEquals("x\n", h.ok("js console.log('x')"));
    }

    @Test
    void fieldIsUsableInQueries() {
        h.ok("js bufq.field('values', 'double_size', r => r.size * 2, {type: 'bytes'})");
        String out = h.ok("values where id = 11 show id, double_size");
        assertTrue(out.contains("8.0KiB"), out);
        h.ok("fields values");
        assertTrue(h.out().contains("double_size"), h.out());
    }

    @Test
    void errorsNameFileLineAndColumn() {
        String e = h.fails("js let a = 1;\nnosuch.x");
        assertTrue(e.contains("js:2:1: ReferenceError: nosuch is not defined"), e);
        e = h.fails("js function f() { throw new Error('boom') }\nf()");
        assertTrue(e.matches("(?s).*js:1:\\d+: Error: boom.*"), e);
        e = h.fails("js x = ;");
        assertTrue(e.contains("js:1:5: syntax error:"), e);
        assertEquals("2\n", h.ok("js 1 + 1"), "the shell goes on");
    }
}
