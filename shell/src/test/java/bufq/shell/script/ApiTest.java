package bufq.shell.script;

import bufq.units.Units;
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
    void formatBytesIsTheTablesFormatter() {
        // the same text a table cell shows, not a script's own "16.0 MiB"
        assertEquals("512B 4.0KiB 16.0MiB\n", h.ok("js print(bufq.format.bytes(512), bufq.format.bytes(4096), bufq.format.bytes(16 * 1024 * 1024))"));
        assertEquals(Units.human(4096) + "\n", h.ok("js bufq.format.bytes(bufq.module.value(11).size)"));
        assertTrue(h.fails("js bufq.format.bytes('x')").contains("bufq.format.bytes(n): argument 1 must be a whole number"));
    }

    @Test
    void rowsAreReadOnly() {
        String e = h.fails("js bufq.module.values[0].size = 5");
        assertTrue(e.contains("read-only"), e);
        e = h.fails("js bufq.module.values[0] = 5");
        assertTrue(e.contains("read-only"), e);
    }

    /**
     * A write to the bufq API says plainly that bufq.NAME is read-only, also to a script that catches
     * it (GraalJS's own wording was "writeMember (query) on {...} failed due to: Message not supported"),
     * and an uncaught one names the script's file and line.
     */
    @Test
    void theApiIsReadOnlyInPlainWords(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        assertEquals("true bufq.query is read-only\n",
                h.ok("js try { bufq.query = () => 1; } catch (e) { print(e instanceof TypeError, e.message); }"));
        assertEquals("bufq.check is read-only and cannot be deleted\n", h.ok("js try { delete bufq.check; } catch (e) { print(e.message); }"));
        assertEquals("bufq is read-only: cannot add 'mine'\n", h.ok("js try { bufq.mine = 1; } catch (e) { print(e.message); }"));
        assertEquals("cannot set 'size': bufq objects and arrays are read-only\n",
                h.ok("js try { bufq.module.values[0].size = 1; } catch (e) { print(e.message); }"));
        assertEquals("cannot set element 0: bufq objects and arrays are read-only\n",
                h.ok("js try { bufq.module.values[0] = 1; } catch (e) { print(e.message); }"));
        java.nio.file.Path script = dir.resolve("patch.js");
        java.nio.file.Files.writeString(script, "let n = 1;\nbufq.version = '2';\n");
        String e = h.fails("run " + script);
        assertTrue(e.contains(script + ":2:1: TypeError: bufq.version is read-only"), e);
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

    @Test
    void failingScriptsNameTheirLine() {
        h.ok("js bufq.field('values', 'bad', r => { if (r.id === 11) throw new Error('no ' + r.label); return 1 }, {type: 'int'})");
        String e = h.fails("values show id, bad");
        assertTrue(e.contains("field 'bad' failed") && e.matches("(?s).*js:1:\\d+: Error: no add\\.3.*"), e);

        // a broken model is refused at set time, not at the next query
        h.ok("js bufq.tiling('broken', s => 'big')");
        e = h.fails("set tiling broken");
        assertTrue(e.matches("(?s).*js:1:23: tiling model 'broken' returned \"big\" for \\S+; expected a whole number of bytes.*\\(tiling stays tpu\\).*"), e);
        assertTrue(h.ok("set tiling").contains("tpu"), h.out());
        h.ok("js bufq.tiling('partial', s => s.dtype === 'u32' ? 'big' : 4)");
        e = h.fails("set tiling partial");
        assertTrue(e.contains("tiling model 'partial' returned \"big\" for u32["), e);

        h.ok("js bufq.check('explodes', (m, report) => { report.warn(m.values[0], 'first'); null.x })");
        h.fails("check");
        String table = h.out();
        assertTrue(table.contains("explodes") && table.contains("first"), table);
        assertTrue(table.matches("(?s).*check failed: js:1:\\d+: TypeError.*"), table);
    }

    /** A misspelt member was reported at column 1 as the property after it, with no did-you-mean. */
    @Test
    void aMisspeltMemberIsPointedAtAndNamed() {
        String e = h.fails("js bufq.modul.values");
        assertTrue(e.contains("js:1:6: TypeError: bufq.modul is undefined, so it has no 'values'; did you mean 'module'?"), e);
        e = h.fails("js let n = bufq.module.valus.length");
        assertTrue(e.contains("js:1:21: TypeError: bufq.module.valus is undefined, so it has no 'length'; did you mean 'values'?"), e);
        e = h.fails("js let o = {}; o.a.b");
        assertTrue(e.contains("js:1:15: TypeError: o.a is undefined, so it has no 'b'"), e);
    }

    @Test
    void badApiCallsSayWhatWasExpected() {
        assertTrue(h.fails("js bufq.field('nope', 'x', r => 1)").contains("unknown entity 'nope'; expected one of values"), h.err());
        assertTrue(h.fails("js bufq.field('values', 'where', r => 1)").contains("must be an identifier and not a keyword"), h.err());
        assertTrue(h.fails("js bufq.field('values', 'size', r => 0)").contains("'size' is a built-in field of values"), h.err());
        assertTrue(h.fails("js bufq.field('values', 'x', 3)").contains("argument 3 must be a function"), h.err());
        assertTrue(h.fails("js bufq.field('values', 'x', r => 1, {type: 'money'})").contains("unknown field type 'money'"), h.err());
        assertTrue(h.fails("js bufq.tiling('tpu', s => 1)").contains("'tpu' is built in"), h.err());
        assertTrue(h.fails("js bufq.check('Bad Name', (m, r) => 1)").contains("must be lowercase"), h.err());
        assertTrue(h.fails("js bufq.module.value('x')").contains("argument 1 must be a whole number"), h.err());
    }

    @Test
    void fieldTypeIsInferredFromResults() {
        h.ok("js bufq.field('values', 'big', r => r.size > 1000)");
        h.ok("js bufq.field('values', 'tag', r => 'v' + r.id)");
        h.ok("js bufq.field('values', 'half', r => r.size / 2)");
        String f = h.ok("fields values");
        assertTrue(f.matches("(?s).*big\\s+bool.*"), f);
        assertTrue(f.matches("(?s).*tag\\s+string.*"), f);
        assertTrue(f.matches("(?s).*half\\s+int.*"), "whole numbers on the first rows: " + f);
        assertTrue(h.ok("values where big and tag = \"v11\" show id").contains("11"), h.out());
    }

    @Test
    void printFollowsTheOutputFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path f = dir.resolve("o.txt");
        h.ok("output " + f);
        h.ok("js print('into the file')");
        h.ok("output");
        assertEquals("into the file\n", java.nio.file.Files.readString(f));
    }

    @Test
    void setTilingMakesTheSizeCheckUseTheScriptModel() {
        assertEquals(bufq.shell.session.Status.OK, h.run("check"), h.err());
        h.ok("js bufq.tiling('page64k', s => Math.ceil(s.logical_bytes / 65536) * 65536)");
        h.ok("set tiling page64k");
        h.fails("check");
        assertTrue(h.out().contains("padded-size") && h.out().contains("but the page64k tiling rule gives 65536"), h.out());
        String sizes = h.ok("values where id = 23 show size, padded_size, padding");
        assertTrue(sizes.contains("64.0KiB"), sizes);
    }

    @Test
    void thePaddingReportUsesTheScriptModelAsQueriesDo() throws Exception {
        try (Harness mlp = new Harness().load(Harness.root().resolve("examples/jax-mlp"))) {
            mlp.ok("js bufq.tiling('page64k', s => Math.ceil(s.logical_bytes / 65536) * 65536)");
            mlp.ok("set tiling page64k");
            mlp.ok("format csv");
            String q = mlp.ok("values where padding > 0 show count(), sum(padding)");
            assertEquals("count(),sum(padding)\n7,458724\n", q);
            mlp.ok("format json");
            String report = mlp.ok("padding");
            assertTrue(report.contains("\"padding_totals\""), report);
            assertTrue(report.contains("\"padded_values\": 7") && report.contains("\"padding_bytes\": 458724"), report);
        }
    }

    @Test
    void valuesDisplayAsJavaScriptWouldWriteThem() {
        String row = h.ok("js bufq.module.value(11)");
        assertTrue(row.startsWith("{id: 11, name: \"add.3\", index: \"{}\", label: \"add.3\", color: 0, space: \"hbm\", size: 4096,"), row);
        assertTrue(h.ok("js bufq.module").matches("\\{handle: \".*\", .*values: \\[\\d+ rows\\].*peak: \\{time: \\d+, bytes: \\d+, live_bytes: \\d+, claimed_time: (\\d+|null)\\}.*\n"), h.out());
        assertEquals("[{id: 11, label: \"add.3\"}]\n", h.ok("js bufq.query('values where id = 11 show id, label')"));
        assertEquals("[2, 3]\n", h.ok("js [1, 2].map(x => x + 1)"));
    }

    @Test
    void aCheckQueriesTheModuleItChecks() {
        h.ok("js bufq.check('count', (m, report) => report.info(m.handle, m.query('values show count()')[0]['count()'] + ' values'))");
        bufq.model.HloModule other = Doctored.overlapping();
        bufq.analysis.check.CheckReport r = bufq.analysis.check.Checks.check(other, null, bufq.api.Extensions.checks(h.shell.scriptChecks()));
        assertEquals("3 values", r.of("count").get(0).message(), "the doctored module, not the current seed");
        assertEquals(bufq.shell.session.Status.OK, h.run("check"));
        assertTrue(h.out().contains(h.shell.current().values().size() + " values"), h.out());
    }
}
