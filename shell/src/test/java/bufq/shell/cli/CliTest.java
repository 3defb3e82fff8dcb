package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Engine;
import bufq.shell.session.Env;
import bufq.shell.session.FakeEngine;
import bufq.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every command-line case in one table, gojq-style: arguments, stdin, expected exit code and
 * fragments of stdout and stderr, all through {@link Bufq#run}. The fake engine stands in for the
 * reader and query language; cases on real dumps live in {@link RealCliTest}.
 */
class CliTest {
    /** One row of the table. {@code out}/{@code err} are fragments that must appear; {@code notOut} must not. */
    record Case(String name, List<String> args, String stdin, int exit, List<String> out, List<String> err,
                List<String> notOut, boolean exactOut, boolean real, String golden) {
        Case exit(int code) { return new Case(name, args, stdin, code, out, err, notOut, exactOut, real, golden); }
        Case in(String s) { return new Case(name, args, s, exit, out, err, notOut, exactOut, real, golden); }
        Case out(String... s) { return new Case(name, args, stdin, exit, plus(out, s), err, notOut, exactOut, real, golden); }
        Case outExactly(String s) { return new Case(name, args, stdin, exit, List.of(s), err, notOut, true, real, golden); }
        Case err(String... s) { return new Case(name, args, stdin, exit, out, plus(err, s), notOut, exactOut, real, golden); }
        Case notOut(String... s) { return new Case(name, args, stdin, exit, out, err, plus(notOut, s), exactOut, real, golden); }
        /** Runs on the real reader and query engine; paths starting with {@code examples/} or {@code shell/} are taken from the checkout. */
        Case realDumps() { return new Case(name, args, stdin, exit, out, err, notOut, exactOut, true, golden); }
        /** Stdout must equal {@code golden/cli/NAME} (regenerate with -Dbufq.updateGoldens=true). */
        Case goldenOut(String file) { return new Case(name, args, stdin, exit, out, err, notOut, exactOut, real, file); }
        @Override public String toString() { return name; }

        private static List<String> plus(List<String> a, String[] b) {
            List<String> r = new ArrayList<>(a);
            r.addAll(List.of(b));
            return r;
        }
    }

    static Case c(String name, String... args) {
        return new Case(name, List.of(args), "", 0, List.of(), List.of(), List.of(), false, false, null);
    }

    static List<Case> cases() {
        return List.of(
                // usage errors: exit 2
                c("help", "--help").out("Usage: bufq", "Exit codes:", "2  usage error", "3  a dump could not be loaded"),
                c("short help", "-h").out("Usage: bufq"),
                c("version", "--version").out("bufq 0.1.0"),
                c("unknown option", "--nope").exit(2).err("bufq: unknown option '--nope'", "Try 'bufq --help'"),
                c("near option", "--bial").exit(2).err("did you mean '--bail'?"),
                c("missing -c value", "-c").exit(2).err("option '-c' needs a value"),
                c("bad format", "--format", "xml").exit(2).err("unknown format 'xml' (expected one of table, vertical, markdown, csv, tsv, json, ndjson)"),
                c("missing script", "-f", "/nonexistent/x.bq").exit(2).err("cannot read script /nonexistent/x.bq: no such file"),
                // load errors: exit 3, one line
                c("load error", "-c", "summary", "bad.txt").exit(3).outExactly("")
                        .err("bufq: bad.txt:1: not a buffer-assignment dump (expected 'BufferAssignment:')"),
                c("warnings are capped", "-c", "summary", "warn.txt").out("12\n(1 row)")
                        .err("bufq: warning: warn.txt:1: malformed value line; expected '<id name @color>'\n",
                                "bufq: warning: warn.txt:10: ", "bufq: warning: 2 more warnings in warn\n"),
                // summary and formats
                c("summary table", "-c", "summary", "a.txt").out("handle  program  current  backend", "a       a        true     cpu", "(1 row)"),
                c("summary json", "--format", "json", "-c", "summary", "a.txt", "b.txt")
                        .out("[\n  {\"handle\": \"a\", \"program\": \"a\", \"current\": true, \"backend\": \"cpu\", \"files\": 1, \"allocations\": 2, \"values\": 3, "
                                + "\"instructions\": 4, \"total_bytes\": 192, \"peak_time\": 1, \"peak_bytes\": 192, "
                                + "\"claimed_peak_time\": 1, \"claimed_peak_bytes\": 192, \"warnings\": 0, \"peak_note\": null},\n  {\"handle\": \"b\", \"program\": \"b\", \"current\": false"),
                c("format=inline", "--format=csv", "-c", "summary", "a.txt").out("handle,program,current,backend,files,allocations,values,"
                        + "instructions,total_bytes,peak_time,peak_bytes,claimed_peak_time,claimed_peak_bytes,warnings\na,a,true,cpu,1,2,3,4,192,1,192,1,192,0\n"),
                c("same name twice", "-c", "modules", "a.txt", "dir/a.txt").out("a#2"),
                c("format command", "-c", "format markdown", "-c", "values", "a.txt").out("| id | name | size |", "| 2 | add.1 | 128B |"),
                c("rawsizes", "-c", "set rawsizes on", "-c", "summary", "a.txt").out("  192  ").notOut("192B"),
                c("maxrows cuts tables", "-c", "set maxrows 2", "-c", "values", "a.txt").out("(2 rows)", "1 more row"),
                c("a pipe gets cells whole whatever maxwidth", "-c", "set maxwidth 4", "-c", "values", "a.txt").out("add.1").notOut("add…"),
                c("maxwidth 0 shows all", "-c", "set maxwidth 0", "-c", "values", "a.txt").out("add.1"),
                c("maxwidth too small", "-c", "set maxwidth 2").exit(1).err("maxwidth takes 0 (no limit) or at least 4"),
                c("maxrows never cuts json", "--format", "json", "-c", "set maxrows 1", "-c", "values", "a.txt").out("\"mul.2\""),
                // query and command errors: exit 1
                c("query error caret", "-c", "values whre", "a.txt").exit(1)
                        .err("values whre\n       ^\nexpected 'where' or end of query"),
                c("no module", "-c", "values").exit(1).err("error: no module loaded (use 'load PATH')"),
                c("unknown command", "-c", "sumary", "a.txt").exit(1).err("error: unknown command 'sumary'; did you mean 'summary'?"),
                // SQL habits point at the bufq form
                c("select is sql", "-c", "SELECT * FROM values LIMIT 3", "a.txt").exit(1)
                        .err("error: unknown command 'SELECT'; bufq has no SELECT, queries start with the entity: did you mean 'values limit 3'?"),
                c("psql quit", "-c", "\\q", "a.txt").exit(1).err("error: unknown command '\\q'; did you mean 'quit'? (or Ctrl-D)"),
                c("errors go on", "-c", "sumary", "-c", "values", "a.txt").exit(1).out("add.1"),
                c("bail stops", "--bail", "-c", "sumary", "-c", "values", "a.txt").exit(1).notOut("add.1"),
                c("unterminated quote in a command", "-c", "load \"my dump", "a.txt").exit(1)
                        .err("load \"my dump\n     ^^^^^^^^\nunterminated string"),
                c("bad setting", "-c", "set maxrows lots").exit(1).err("maxrows takes a whole number >= 0, not 'lots'"),
                c("unknown setting", "-c", "set colour on").exit(1).err("unknown setting 'colour'; did you mean 'color'?"),
                c("set lists", "-c", "set").out("maxrows", "200", "threshold", "16.0KiB", "tiling", "tpu"),
                c("timeout to the millisecond", "-c", "set timeout 0.250", "-c", "set").out("timeout    0.25 "),
                c("timeout past the millisecond", "-c", "set timeout 0.0005").exit(1)
                        .err("timeout takes seconds >= 0, to the millisecond (such as 10 or 0.5), not '0.0005'"),
                c("timeout below zero", "-c", "set timeout -1").exit(1).err("timeout takes seconds >= 0"),
                // sizes: one table of units (help units)
                c("a capacity needs a unit", "--capacity", "16", "-c", "set capacity").exit(2)
                        .err("capacity: '16' has no unit; write 16B for bytes, or 16GiB, 16GB"),
                c("a capacity with a space before its unit", "-c", "set capacity 16 GiB", "-c", "set capacity")
                        .out("capacity  16 GiB"),
                c("a decimal capacity", "--capacity", "80gb", "-c", "set capacity").out("capacity  80gb"),
                c("a negative capacity", "-c", "set capacity -4GiB").exit(1).err("capacity: a size cannot be negative: '-4GiB'"),
                c("a capacity past 64 bits", "-c", "set capacity 99999999999999999999999B").exit(1).err("past 2^63 - 1 bytes"),
                c("a reservation of 0 needs no unit", "-c", "set reserved 0", "-c", "set reserved").out("reserved  0 "),
                c("the units table", "-c", "help units").out("KiB", "1024", "GB", "1000000000", "as XLA prints GiB (15.48G)"),
                c("unknown tiling", "-c", "set tiling gpu").exit(1).err("unknown tiling model 'gpu' (known: tpu, none)"),
                c("use by number", "-c", "use 2", "-c", "modules", "a.txt", "b.txt").out("2  b       b        true").err("using b"),
                c("use by prefix", "-c", "use be", "a.txt", "beta.txt").err("using beta"),
                c("big directory loads lazily", "-c", "load many", "-c", "modules").out("m39", "false")
                        .err("loaded m0 (", "found 40 modules; 39 are read when first used"),
                c("diff needs two sides", "-c", "diff a", "a.txt").exit(1).err("usage: diff A B"),
                c("diff unknown side", "-c", "diff a zzz", "a.txt").exit(1).err("no module 'zzz'"),
                c("use unknown", "-c", "use zeta", "a.txt", "beta.txt").exit(1).err("no module 'zeta'"),
                c("fields", "-c", "fields values").out("size", "bytes", "assigned bytes"),
                c("fields typo", "-c", "fields valeus").exit(1).err("unknown entity 'valeus'; did you mean 'values'?"),
                c("help lists commands", "-c", "help").out("load PATH...", "output [FILE] [--force]", "help query"),
                c("help query", "-c", "help query").out("values where live at peak order by size desc limit 10", "live during"),
                c("help command", "-c", "help set").out("set [NAME [VALUE]]", "Examples:", "set maxrows 50"),
                c("help settings", "-c", "help settings").out("threshold", "16.0KiB"),
                c("set shows value and default one way", "-c", "set", "a.txt").out("threshold  16.0KiB").notOut(" 16KiB"),
                c("help unknown", "-c", "help sumary").exit(1).err("no help on 'sumary'; did you mean 'summary'?"),
                c("quit stops", "-c", "quit", "-c", "values", "a.txt").notOut("add.1"),
                c("timer", "-c", "timer on", "-c", "values", "a.txt").err("Time: "),
                // stdin scripts
                c("stdin", "a.txt").in("# comment\nvalues limit 1\n\nsummary\n").out("p0", "(1 row)").notOut("add.1"),
                c("stdin continues unfinished query", "a.txt").in("values limit\n 2\n").out("(2 rows)"),
                c("stdin backslash", "a.txt").in("values \\\nlimit 1\n").out("(1 row)"),
                c("stdin errors go on", "a.txt").in("nope\nvalues limit 1\n").exit(1).out("p0").err("stdin:1: error: unknown command 'nope'"),
                c("stdin bail", "--bail", "a.txt").in("nope\nvalues limit 1\n").exit(1).notOut("p0"),
                c("stdin query error location", "a.txt").in("\nvalues x\n").exit(1).err("stdin:2:\nvalues x\n       ^"),
                c("stdin empty", "a.txt").in("").outExactly(""),
                c("stdin binary is never run", "a.txt").in("values limit 1\noutput x\u0000y\nvalues\n").exit(2)
                        .out("p0").notOut("add.1").err("bufq: stdin: binary data at line 2, not a script; stopped"),
                c("no colour in pipes", "-c", "values", "a.txt").notOut("\033["),
                // the real reader and query language on the bundled examples
                c("summary of every seed", "--format", "json", "-c", "summary", SEEDS[0], SEEDS[1], SEEDS[2], SEEDS[3], SEEDS[4])
                        .realDumps().goldenOut("summary-seeds.json"),
                c("summary of the jax-mlp four-file set", "--format", "json", "-c", "summary", "examples/jax-mlp/").realDumps()
                        .out("\"handle\": \"jit_f\", \"program\": \"jit_f\", \"current\": true, \"backend\": \"cpu\", \"files\": 4,", "\"total_bytes\": 98566192,",
                                "\"peak_time\": 19, \"peak_bytes\": 85983236, \"claimed_peak_time\": 20, \"claimed_peak_bytes\": 85983236, \"warnings\": 0, \"peak_note\": \"the dump labels step 20 its peak; it holds as many occupied bytes (82.0MiB) as step 19"),
                c("one sibling finds the set", "-c", "modules", "examples/jax-mlp/module_0000.jit_f.cpu_after_optimizations-live-range.txt")
                        .realDumps().out("jit_f", "cpu"),
                // habits from SQL shells
                c("trailing semicolons", "-c", "values limit 1;", "-c", "summary;", SEEDS[4]).realDumps()
                        .out("(1 row)\nhandle").notOut("error"),
                c("upper-case query and command", "-c", "VALUES LIMIT 1", "-c", "SUMMARY", SEEDS[4]).realDumps()
                        .out("(1 row)\nhandle").notOut("error"),
                c("sql comments in a script", SEEDS[4]).in("-- the totals\nsummary\n# one value\nvalues limit 1 -- the first\n").realDumps()
                        .out("handle", "(1 row)").notOut("error"),
                // several results in markdown render as separate tables; echo heads them with the statement (item 12)
                c("markdown results apart", "--format", "markdown", "-c", "values limit 1", "-c", "summary", SEEDS[4]).realDumps()
                        .out("(1 row)\n\n| handle |"),
                c("echo heads results", "--format", "markdown", "-c", "set echo on", "-c", "values limit 1", "-c", "summary",
                        SEEDS[4]).realDumps().out("#### `values limit 1`\n\n| id |", "(1 row)\n\n#### `summary`\n\n| handle |"),
                c("echo in the table format", "-c", "set echo on", "-c", "summary", SEEDS[4]).realDumps().out("-- summary\nhandle"),
                // one json document per statement; csv and tsv print a section per table; timeline data is numbers (item 6)
                c("json peak is one document", "--format", "json", "-c", "peak", SEEDS[4]).realDumps()
                        .out("{\n  \"peak_of_occupied_bytes\": [\n").notOut("]\n["),
                c("csv of several tables is a section each", "--format", "csv", "-c", "peak", SEEDS[4]).realDumps()
                        .out("# peak_of_occupied_bytes\ncolor,", "\n\n# values_live_at_step\nvalue,"),
                c("ndjson names each row's table", "--format", "ndjson", "-c", "peak", SEEDS[4]).realDumps()
                        .out("{\"table\": \"peak_of_occupied_bytes\", \"color\": ", "\n{\"table\": \"values_live_at_step\", "),
                c("timeline in csv is numbers", "--format", "csv", "-c", "timeline", SEEDS[4]).realDumps()
                        .out("step,instruction,occupied_bytes,live_bytes,", "\n0,Arg_1.2,").notOut("█"),
                c("summary table on a seed", "-c", "summary", SEEDS[4]).realDumps()
                        .out("004_0cb419b3147a3cb6  004_0cb419b3147a3cb6  true     tpu", "100.5KiB", "(1 row)", "the other memory spaces, each on its own: vmem 68.0KiB"),
                c("canonical query", "-c", "values where color=1 and live at 13", SEEDS[4]).realDumps()
                        .out("copy-start.1{0}", "(5 rows)"),
                c("sum at the label equals the claim", "--format", "csv", "-c", "values where live at claimed_peak show sum(logical_size)", SEEDS[4])
                        .realDumps().outExactly("sum(logical_size)\n43200\n"),
                // The peak of the device memory (color 0) is the label's step 13; its live bytes are color 0's.
                c("sum at peak is the live bytes of the peak step", "--format", "csv", "-c", "values where live at peak and color = 0 show sum(logical_size)",
                        "-c", "steps where time = 13 show live_bytes, occupied_bytes", "-c", "summary", SEEDS[4])
                        .realDumps().out("sum(logical_size)\n30720\n", "live_bytes,occupied_bytes\n30720,65536\n",
                                ",13,65536,13,43200,"),
                c("real query error with caret", "-c", "values where colr = 1", SEEDS[4]).realDumps().exit(1)
                        .err("values where colr = 1\n             ^^^^\nunknown field 'colr' for values; did you mean 'color'?"),
                c("directory without dumps", "-c", "summary", "shell/src/main/java").realDumps().exit(3).err("bufq: ", "shell/src/main/java").outExactly(""),
                c("not a dump", "-c", "summary", "shell/pom.xml").realDumps().exit(3).err("bufq: ", "pom.xml").outExactly(""),
                c("missing dump", "-c", "summary", "examples/nope.txt").realDumps().exit(3).err("bufq: ").outExactly(""),
                c("stdin script on a real dump", SEEDS[4]).realDumps()
                        .in("# the top of the peak\nvalues where live at peak and\n  size > 1KiB order by\n  size desc limit 2\nformat csv\nsteps order by live_bytes desc limit 1\n")
                        .out("(2 rows)", "time,instruction,live_bytes,occupied_bytes,live_values\n13,fusion,30720,65536,9\n"),
                c("peak of a colour the module lacks", "-c", "peak color 5", "examples/seeds/004_0cb419b3147a3cb6.txt").realDumps()
                        .exit(1).err("peak color 5\n           ^\nno color 5 in 004_0cb419b3147a3cb6 (memory spaces: hbm (color 0), vmem (color 1), smem (color 2))"),
                c("timeline of a colour the module lacks", "-c", "timeline color 7", "examples/seeds/004_0cb419b3147a3cb6.txt").realDumps()
                        .exit(1).err("timeline color 7\n               ^\nno color 7 in"),
                c("the walkthrough script", "-f", "examples/peak-report.bq", "examples/jax-mlp/").realDumps()
                        .out("jit_f", "(7 rows)", "82.0MiB", "peak of occupied bytes", "by op_name", "0 errors"),
                c("fields from the catalog", "-c", "fields steps").realDumps().out("live_bytes"),
                c("peak report", "-c", "peak", SEEDS[4]).realDumps().out("peak of occupied bytes", "claimed_peak_time",
                        "each memory space on its own row"),
                c("check passes on a seed", "-c", "check", SEEDS[4]).realDumps().out("peak-claim", "0 errors"),
                c("load error in a session", "-c", "load nosuch.txt", SEEDS[4]).realDumps().exit(1).err("error: nosuch.txt: no such file"),
                c("blame by typo", "-c", "blame by colour", SEEDS[4]).realDumps().exit(1).err("blame by takes op_name, source, opcode, stack, category, path or sharding"),
                c("map needs a number", "-c", "map x", SEEDS[4]).realDumps().exit(1).err("map x\n    ^\nN takes a whole number >= 0, not 'x'"),
                c("map of a missing allocation", "-c", "map 99", SEEDS[4]).realDumps().exit(1).err("map 99\n    ^^\nno allocation 99"),
                c("timeline width", "-c", "timeline width 40", SEEDS[4]).realDumps().out("peak"),
                c("report option typo", "-c", "timeline colr 1", SEEDS[4]).realDumps().exit(1).err("unexpected 'colr'"));
    }

    static final String[] SEEDS = {"examples/seeds/000_58de9a4b501a9eb8.txt", "examples/seeds/001_8fa21c8202130165.txt",
            "examples/seeds/002_186bba49641ec33a.txt", "examples/seeds/003_3ae9b34c349c690e.txt",
            "examples/seeds/004_0cb419b3147a3cb6.txt"};

    static Path root() {
        return Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void cli(Case k) throws IOException {
        List<String> args = k.args();
        if (k.real()) {
            Path root = root();
            args = args.stream().map(a -> a.startsWith("examples/") || a.startsWith("shell/") ? root.resolve(a).toString() : a).toList();
        }
        Result r = run(k.real() ? DefaultEngine::new : FakeEngine::new, Map.of(), args, k.stdin());
        assertEquals(k.exit(), r.code, () -> "exit code\n--- stdout\n" + r.out + "--- stderr\n" + r.err);
        if (k.golden() != null) golden(k.golden(), r.out);
        if (k.exactOut()) assertEquals(k.out().get(0), r.out);
        else for (String s : k.out()) assertTrue(r.out.contains(s), () -> "stdout lacks [" + s + "]:\n" + r.out + "--- stderr\n" + r.err);
        for (String s : k.notOut()) assertFalse(r.out.contains(s), () -> "stdout has [" + s + "]:\n" + r.out);
        for (String s : k.err()) assertTrue(r.err.contains(s), () -> "stderr lacks [" + s + "]:\n" + r.err);
        assertFalse(r.err.contains("\tat "), () -> "stack trace on stderr:\n" + r.err);
    }

    static void golden(String file, String actual) throws IOException {
        Golden.check(Golden.file("shell", "cli/" + file), actual);
    }

    /** Every example in 'help query' runs on a real dump: the help cannot drift from the language. */
    /** At 80 columns help's descriptions start near the left and a terminal's tables do not wrap. */
    @Test
    void eightyColumnsFitHelpAndTables() {
        Result help = run(DefaultEngine::new, Map.of("COLUMNS", "80"), List.of("-c", "help"), "");
        for (String line : help.out().split("\n")) assertTrue(line.length() <= 80, line);
        assertTrue(help.out().contains("\n  summary                   One row per loaded module"), help.out());
        // synopses break between their parts, never inside a bracket, and go on indented
        for (String line : help.out().split("\n")) {
            long open = line.chars().filter(ch -> ch == '[').count(), close = line.chars().filter(ch -> ch == ']').count();
            assertEquals(open, close, "a bracket split across lines: " + line);
        }
        assertTrue(help.out().contains("  export pprof|perfetto|parquet|duckdb FILE [at STEP] [by stack|op_name|source]\n      [--force]\n"), help.out());
        for (String topic : List.of("export", "timeline", "map")) {
            Result one = run(DefaultEngine::new, Map.of("COLUMNS", "80"), List.of("-c", "help " + topic), "");
            for (String line : one.out().split("\n\n")[0].split("\n")) {   // the synopsis, before the description
                assertTrue(line.length() <= 80, line);
                assertEquals(line.chars().filter(ch -> ch == '[').count(), line.chars().filter(ch -> ch == ']').count(), line);
            }
        }
        // Each command's own page fits too: prose rewrapped, table rows hung under their text.
        // Examples are commands to copy, kept whole.
        for (String topic : List.of("load", "peak", "why", "whatif", "advise", "format", "formats", "export", "blame", "set")) {
            Result page = run(DefaultEngine::new, Map.of("COLUMNS", "80"), List.of("-c", "help " + topic), "");
            String text = page.out().split("\nExamples:\n")[0];
            for (String line : text.split("\n")) assertTrue(line.length() <= 80, "help " + topic + ": " + line);
        }
        Result advise = run(DefaultEngine::new, Map.of("COLUMNS", "80"), List.of("-c", "help advise"), "");
        assertTrue(advise.out().contains("\n  fragmentation allocations reserving 5% or more beyond the peak of occupied\n"
                + "                bytes (the packing loss)\n"), advise.out());
        Result values = run(DefaultEngine::new, new Env(Map.of("COLUMNS", "80", "NO_COLOR", "1"), true),
                List.of("-c", "values order by id limit 5", root().resolve("examples/jax-mlp").toString()), new byte[0]);
        for (String line : values.out().split("\n")) assertTrue(line.length() <= 80, line);
        assertTrue(values.out().contains("(5 rows)"), values.out());
        // summary and peak: every line fits, notes included; the empty and detail columns go first
        Result reports = run(DefaultEngine::new, new Env(Map.of("COLUMNS", "80", "NO_COLOR", "1"), true),
                List.of("-c", "summary", "-c", "peak", root().resolve("examples/jax-mlp").toString()), new byte[0]);
        for (String line : reports.out().split("\n")) assertTrue(line.length() <= 80, line);
        // summary's many columns do not fit 80 without leaving some out: one field per line, each whole
        assertTrue(reports.out().contains("-[ RECORD 1 ]") && reports.out().matches("(?s).*\npeak_time +\\| \\d+\n.*"),
                "summary keeps its peak: " + reports.out());
        assertTrue(reports.out().matches("(?s).*\nvalue +\\| .*\nshape +\\| .*\nop_name +\\| .*"), "peak keeps shape and op_name: " + reports.out());
        assertFalse(reports.out().contains(" left out"), reports.out());
        // 'set maxwidth 0' shows cells whole, as the README says, on a terminal too
        Result whole = run(DefaultEngine::new, new Env(Map.of("COLUMNS", "80", "NO_COLOR", "1"), true),
                List.of("-c", "set maxwidth 0", "-c", "values order by id limit 5", root().resolve("examples/jax-mlp").toString()), new byte[0]);
        assertTrue(whole.out().lines().anyMatch(l -> l.length() > 80), whole.out());
        assertFalse(whole.out().contains("…") || whole.out().contains("left out"), whole.out());
        // a batch run on a terminal takes the width the terminal reports when COLUMNS is not set
        Result asked = run(DefaultEngine::new, new Env(Map.of("NO_COLOR", "1"), true).withColumns(80),
                List.of("-c", "summary", "-c", "advise", root().resolve("examples/jax-mlp").toString()), new byte[0]);
        for (String line : asked.out().split("\n")) assertTrue(line.length() <= 80, line);
        // a pipe gets every column
        Result piped = run(DefaultEngine::new, Map.of("COLUMNS", "80"),
                List.of("-c", "values order by id limit 5", root().resolve("examples/jax-mlp").toString()), "");
        assertTrue(piped.out().lines().anyMatch(l -> l.length() > 80), piped.out());
    }

    @Test
    void aPipeFoldsLinesAtFoldwidthAndCutsNothing() {
        String mlp = root().resolve("examples/jax-mlp").toString();
        Result folded = run(DefaultEngine::new, Map.of(), List.of("-c", "set foldwidth 120", "-c", "advise", mlp), "");
        assertEquals(0, folded.code(), folded.err());
        assertTrue(folded.out().lines().allMatch(l -> l.length() <= 120), folded.out());
        // the finding goes whole under its row, labelled, so the row stays a row
        assertTrue(folded.out().contains("\n    finding: ") && !folded.out().contains("…"), folded.out());
        Result rows = run(DefaultEngine::new, Map.of(), List.of("-c", "set foldwidth 0", "-c", "advise", mlp), "");
        assertTrue(rows.out().lines().anyMatch(l -> l.length() > 400), "a row a line: " + rows.out());
        Result bad = run(DefaultEngine::new, Map.of(), List.of("-c", "set foldwidth 10", mlp), "");
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("foldwidth takes 0 (no limit) or at least 40, not '10'"), bad.err());
    }

    @Test
    void helpQueryExamplesRun() {
        Result help = run(DefaultEngine::new, Map.of(), List.of("-c", "help query"), "");
        List<String> args = new ArrayList<>();
        for (String line : help.out().split("\n"))
            if (line.matches("  (values|allocations|instructions|steps) .*")) {
                args.add("-c");
                args.add(line.strip());
            }
        assertEquals(18, args.size(), help.out());
        args.add(root().resolve(SEEDS[4]).toString());
        Result r = run(DefaultEngine::new, Map.of(), args, "");
        assertEquals(new Result(0, r.out(), ""), r);
    }

    @Test
    void stdinThatIsNotUtf8StopsBeforeRunningIt() {
        byte[] latin1 = "summary\nvalues \u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        Result r = run(FakeEngine::new, new Env(Map.of(), false), List.of("a.txt"), latin1);
        assertEquals(2, r.code, r.err);
        assertTrue(r.out.contains("(1 row)"), "the first line ran: " + r.out);
        assertTrue(r.err.contains("bufq: stdin: binary data at line 2, not a script; stopped"), r.err);
    }

    @Test
    void closedStdinReadsNothing() {
        Result r = run(FakeEngine::new, new Env(Map.of(), false, true), List.of("a.txt"),
                "output /tmp/should-not-exist\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(new Result(0, "", ""), r);
    }

    record Result(int code, String out, String err) {}

    static Result run(Supplier<Engine> engine, Map<String, String> env, List<String> args, String stdin) {
        return run(engine, new Env(env, false), args, stdin.getBytes(StandardCharsets.UTF_8));
    }

    static Result run(Supplier<Engine> engine, Env env, List<String> args, byte[] stdin) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Bufq b = new Bufq(env, engine, in -> { throw new AssertionError("no REPL when stdin is not a terminal"); });
        int code = b.run(args.toArray(String[]::new), new ByteArrayInputStream(stdin),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
