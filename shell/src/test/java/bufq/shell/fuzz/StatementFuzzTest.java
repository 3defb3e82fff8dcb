package bufq.shell.fuzz;

import bufq.shell.cli.Bufq;
import bufq.shell.api.Command;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.session.Setting;
import bufq.shell.run.Shell;
import bufq.shell.session.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile scripts: every command's documented examples and settings, with their words
 * swapped for hostile ones (huge, negative and malformed numbers, stray options, a 10,000-character
 * word, control characters), run through {@link Shell#execute} on real modules. Each statement ends
 * with OK or a one-line error; never an internal error. The clock is only a safety net: a statement
 * may take as long as it likes within the loop's {@link Seeds#SAFETY_NET_MILLIS}, and one that is still
 * running past it fails as a hang. Paths are kept inside a temporary directory so the fuzzer cannot
 * write or walk anywhere else.
 */
class StatementFuzzTest {
    @TempDir Path tmp;

    static final String[] HOSTILE = {
        "-1", "0", "1", "3", "2147483647", "2147483648", "9223372036854775807", "99999999999999999999", "-9223372036854775808",
        "1e9", "NaN", "0x10", "1.5", "1MiB", "64KiB", "-", "--", "--force", "--svg", "--html", "--at-peak", "color", "width",
        "depth", "by", "peak", "on", "off", "auto", "table", "json", "csv", "source", "op_name", "opcode", "allocation",
        "\"", "'", "\\", "#", "\u00e9", "\u00d7", "\t", "\u0001", "\u001b[31m", "x".repeat(10_000), "values", "jit_f", "1#2",
    };

    private final ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "statement-fuzz");
        t.setDaemon(true);
        return t;
    });

    @Test
    void hostileStatementsEndInAResultOrAOneLineError() throws Exception {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        Path root = Path.of(System.getProperty("bufq.root", ".."));
        String[] dumps = {root.resolve("examples/jax-mlp").toString(), root.resolve("examples/seeds/004_0cb419b3147a3cb6.txt").toString(),
            root.resolve("examples/seeds/000_58de9a4b501a9eb8.txt").toString()};
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Shell shell = newShell(out, err, dumps);
        List<String> pool = new ArrayList<>();
        for (Command c : shell.commands().all()) {
            pool.add(c.name());
            for (String e : c.examples()) if (!e.startsWith("bufq ")) pool.add(e);
        }
        for (Setting s : Setting.values()) pool.add("set " + s.key() + " " + (s.choices().isEmpty() ? s.defaultText() : s.choices().get(0)));
        pool.add("values where live at peak order by size desc limit 5");
        List<String> cwdBefore = listing(Path.of(""));
        int cases = Seeds.cases(300);
        long t0 = System.currentTimeMillis();
        // The JVM's first JavaScript start loads GraalVM, which on a loaded machine takes long; do it
        // once here, so no case below pays for it.
        assertEquals(Status.OK, run(shell, "js 1", "the first JavaScript start", t0), err.toString(StandardCharsets.UTF_8));
        int n = 0;
        for (; n < cases; n++) {
            Seeds.safetyNet(t0, n, cases, seed);
            String stmt = mutate(pool.get(r.nextInt(pool.size())), r, dumps);
            if (stmt.startsWith("quit") || stmt.startsWith("exit")) continue;
            out.reset();
            err.reset();
            String what = "case " + n + " '" + clip(stmt) + "', seed " + seed + " (replay: -Dbufq.fuzz.seed=" + seed + ")";
            Status st = run(shell, stmt, what, t0);
            String e = err.toString(StandardCharsets.UTF_8);
            assertTrue(!e.contains("internal error") && !e.contains("\tat "), what + "\n" + e);
            if (st == Status.ERROR) assertTrue(!e.isBlank(), what + ": failed silently");
            // A setting the fuzzer changed stays; start afresh now and then so all of them get tried.
            if (st == Status.QUIT || r.nextInt(50) == 0) {
                closeQuietly(shell);
                shell = newShell(out, err, dumps);
            }
        }
        closeQuietly(shell);
        System.out.println("statement fuzz: " + n + " statements, seed " + seed);
        assertEquals(cwdBefore, listing(Path.of("")), "the fuzzer wrote outside its temporary directory");
    }

    /** Regressions the fuzzer found, each an argument error now: the statement, a caret, one line of message. */
    @Test
    void foundByTheFuzzer() throws Exception {
        Path root = Path.of(System.getProperty("bufq.root", ".."));
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Shell shell = newShell(out, err, new String[] {root.resolve("examples/jax-mlp").toString()});
        long t0 = System.currentTimeMillis();
        String[][] cases = {
            // seed 20261121, case 344: an IllegalArgumentException from the analyses was an internal error
            {"timeline color 1 width 120", "no color 1 in "},
            {"peak color 7", "no color 7 in "},
            // seed 16, case 11453: a chart 2^31 columns wide ran out of memory
            {"timeline color 0 width 2147483647", "'width' takes a whole number from 20 to 10000, not '2147483647'"},
            {"map 0 width 2147483647", "'width' takes a whole number from 20 to 10000, not '2147483647'"},
        };
        for (String[] c : cases) {
            err.reset();
            assertTrue(run(shell, c[0], c[0], t0) == Status.ERROR, c[0]);
            String e = err.toString(StandardCharsets.UTF_8);
            String[] lines = e.split("\n");
            assertTrue(lines.length == 3 && lines[0].equals(c[0]) && lines[1].strip().matches("\\^+") && lines[2].startsWith(c[1]),
                    c[0] + " -> " + e);
        }
    }

    /** A statement that exhausts the heap is one error line; the next statement runs. */
    @Test
    void runningOutOfMemoryLeavesTheShellUp() throws Exception {
        DefaultEngine real = new DefaultEngine();
        bufq.shell.session.Engine greedy = new bufq.shell.session.Engine() {
            @Override public List<FoundModule> discover(List<Path> paths, Consumer<String> skipped) throws Failure { return real.discover(paths, skipped); }
            @Override public List<String> entities() { return real.entities(); }
            @Override public List<Field> fields(String entity) { return real.fields(entity); }
            @Override public Compiled compile(String q) {
                Compiled c = real.compile(q);
                if (!q.contains("greedy")) return c;
                return new Compiled() {
                    @Override public String text() { return c.text(); }
                    @Override public String entity() { return c.entity(); }
                    @Override public boolean readsUsedValues() { return c.readsUsedValues(); }
                    @Override public List<String> unresolved() { return c.unresolved(); }
                    @Override public String diagnostic() { return c.diagnostic(); }
                    @Override public List<bufq.table.Output> run(bufq.model.HloModule m, bufq.model.TilingModel t,
                                                                  List<bufq.eval.ModuleRow> modules) {
                        // More than any heap may hold: an OutOfMemoryError at once, without touching memory.
                        return List.of(new bufq.table.TextBlock(String.valueOf(new long[Integer.MAX_VALUE].length)));
                    }
                };
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Shell shell = Bufq.shell(greedy, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), false));
        Path root = Path.of(System.getProperty("bufq.root", ".."));
        long t0 = System.currentTimeMillis();
        assertTrue(shell.execute("load " + root.resolve("examples/jax-mlp")) == Status.OK, err.toString(StandardCharsets.UTF_8));
        err.reset();
        assertTrue(run(shell, "values where name = \"greedy\"", "greedy", t0) == Status.ERROR);
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("error: out of memory running this statement"), err.toString(StandardCharsets.UTF_8));
        assertTrue(run(shell, "values show count()", "after", t0) == Status.OK);
    }

    private Shell newShell(ByteArrayOutputStream out, ByteArrayOutputStream err, String[] dumps) {
        Shell s = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), false));
        for (String d : dumps) s.execute("load " + d);
        return s;
    }

    /**
     * Runs one statement on the fuzzer's thread and waits for it as long as the safety net of the
     * test started at {@code startMillis} allows: a bound on a hang, not on how fast a statement is.
     */
    private Status run(Shell shell, String stmt, String what, long startMillis) throws Exception {
        Future<Status> f = pool.submit(() -> shell.execute(stmt));
        long left = startMillis + Seeds.SAFETY_NET_MILLIS - System.currentTimeMillis();
        try {
            return f.get(Math.max(0, left), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError("still running after the " + Seeds.SAFETY_NET_MILLIS / 60_000
                    + "-minute safety net (a hang): " + what);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError(what + ": " + e.getCause(), e.getCause());
        }
    }

    /** Swaps, adds or drops words; any word that names a file becomes a path in the temporary directory. */
    String mutate(String stmt, Random r, String[] dumps) {
        List<String> words = new ArrayList<>(List.of(stmt.split(" ")));
        for (int k = r.nextInt(4); k > 0; k--) {
            int i = words.size() <= 1 ? words.size() : 1 + r.nextInt(words.size() - 1);
            switch (r.nextInt(3)) {
                case 0 -> words.add(i, HOSTILE[r.nextInt(HOSTILE.length)]);
                case 1 -> { if (i < words.size()) words.set(i, HOSTILE[r.nextInt(HOSTILE.length)]); }
                default -> { if (i < words.size() && words.size() > 1) words.remove(i); }
            }
        }
        boolean reads = words.get(0).equals("load") || words.get(0).equals("run") || words.get(0).equals("diff");
        boolean output = words.get(0).equals("output");
        for (int i = 1; i < words.size(); i++) {
            String w = words.get(i);
            String before = words.get(i - 1);
            boolean writes = output && !w.equals("--force") || before.equals("--svg") || before.equals("--html")
                    || words.get(0).equals("export") && i == 2;   // export pprof|perfetto FILE
            if (writes || w.contains("/") || w.matches(".*\\.(md|csv|svg|html|bq|js|txt|json|gz)")) {
                words.set(i, reads && r.nextBoolean() ? dumps[r.nextInt(dumps.length)] : tmp.resolve("f" + r.nextInt(5) + "." + ext(w)).toString());
            }
        }
        return String.join(" ", words);
    }

    private static void closeQuietly(Shell s) {
        try {
            s.close();
        } catch (java.io.IOException e) {
            // an output file the fuzzer opened could not be published: not what is tested here
        }
    }

    private static List<String> listing(Path d) throws java.io.IOException {
        try (var s = java.nio.file.Files.list(d.toAbsolutePath())) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String ext(String w) {
        int dot = w.lastIndexOf('.');
        return dot < 0 || dot == w.length() - 1 || w.substring(dot + 1).contains("/") ? "txt" : w.substring(dot + 1);
    }

    private static String clip(String s) {
        String t = s.length() > 200 ? s.substring(0, 200) + "..." : s;
        return t.replace("\n", "\\n");
    }
}
