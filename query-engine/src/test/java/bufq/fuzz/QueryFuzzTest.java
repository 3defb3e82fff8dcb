package bufq.fuzz;

import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.Query;
import bufq.format.FormatOptions;
import bufq.format.Formatters;
import bufq.lang.assist.Completion;
import bufq.lang.Diagnostic;
import bufq.lang.assist.Highlight;
import bufq.lang.Parser;
import bufq.lang.QueryException;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.table.Table;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile queries: grammar-aware random queries, and mutations of the documented
 * examples, always end in a result or a diagnostic with a position inside the query; never another
 * exception, never a hang. Every path the REPL takes on each keystroke (highlight, completion,
 * needsMore) is driven with the same text.
 */
class QueryFuzzTest {
    static final Catalog CATALOG = Catalog.standard();

    static List<HloModule> modules() throws Exception {
        Path root = Fuzz.root();
        List<HloModule> ms = new ArrayList<>(DumpLoader.load(List.of(root.resolve("examples/jax-mlp"))));
        ms.addAll(DumpLoader.load(List.of(root.resolve("examples/seeds/004_0cb419b3147a3cb6.txt"))));
        return ms;
    }

    /** Lines of the docs that are queries: inside code blocks, starting with an entity. */
    static List<String> documentedExamples() throws IOException {
        Path root = Fuzz.root();
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("query-engine/GRAMMAR.md")));
        if (Files.isDirectory(root.resolve("docs"))) {
            try (Stream<Path> s = Files.list(root.resolve("docs"))) {
                s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
            }
        }
        List<String> out = new ArrayList<>();
        for (Path p : docs) {
            if (!Files.exists(p)) continue;
            for (String line : Files.readAllLines(p)) {
                String t = line.strip().replaceFirst("^bufq(\\([^)]*\\))?> ", "");
                int sp = t.indexOf(' ');
                if (sp > 0 && CATALOG.entities().contains(t.substring(0, sp))) out.add(t);
            }
        }
        return out;
    }

    @Test
    void randomAndMutatedQueriesEndInAResultOrAPositionedDiagnostic() throws Exception {
        long seed = Fuzz.seed();
        List<HloModule> modules = modules();
        List<String> examples = documentedExamples();
        assertTrue(examples.size() >= 9, "documented examples: " + examples);
        Random r = new Random(seed);
        List<String> names = new ArrayList<>();
        for (HloModule m : modules) for (HloInstruction i : m.instructions()) names.add(i.name());
        QueryGen gen = new QueryGen(CATALOG, r, names);
        int[] tally = new int[3];   // generated, compiled, ran
        int cases = Fuzz.cases(2_000);
        long t0 = System.currentTimeMillis();
        int n = 0;
        for (; n < cases; n++) {
            Fuzz.safetyNet(t0, n, cases, seed);
            int mode = r.nextInt(4);
            String q = switch (mode) {
                case 0, 1 -> gen.query();
                case 2 -> gen.mutate(examples.get(r.nextInt(examples.size())));
                default -> gen.mutate(gen.query());
            };
            HloModule m = modules.get(r.nextInt(modules.size()));
            String what = "case " + n + " " + quote(q) + ", " + Fuzz.replay(seed);
            Fuzz.Outcome<Integer> o = Fuzz.bounded(what, 20_000, () -> judge(q, m, r.nextInt(q.length() + 1)));
            if (o.thrown() != null) throw new AssertionError(what + ": " + o.thrown(), o.thrown());
            if (mode < 2) {
                tally[0]++;
                if (o.value() >= 1) tally[1]++;
                if (o.value() >= 2) tally[2]++;
            }
        }
        System.out.printf("query fuzz: %d cases in %d ms, %s; generated %d, compiled %d, ran %d%n",
                n, System.currentTimeMillis() - t0, Fuzz.replay(seed), tally[0], tally[1], tally[2]);
        assertTrue(tally[1] * 4 > tally[0], "the generator should mostly write valid queries: " + tally[1] + " of " + tally[0]);
    }

    /** 0: a diagnostic at compile time, 1: at run time, 2: a result. Throws for anything else. */
    static int judge(String q, HloModule m, int cursor) {
        Highlight.of(q, CATALOG);
        Completion.at(q, cursor, CATALOG);
        Parser.needsMore(q);
        int stage = 0;
        try {
            Query query = Query.compile(q, CATALOG);
            stage = 1;
            Table t = query.run(new EvalContext(m));
            for (String f : Formatters.names()) {
                StringBuilder b = new StringBuilder();
                Formatters.writeAll(List.of(t), Formatters.byName(f), FormatOptions.DEFAULT, b);
            }
            return 2;
        } catch (QueryException e) {
            checkDiagnostic(q, e);
            return stage;
        }
    }

    static void checkDiagnostic(String q, QueryException e) {
        Diagnostic d = e.diagnostic();
        if (d.start() < 0 || d.end() < d.start() || d.end() > q.length())
            throw new AssertionError("span " + d.start() + ".." + d.end() + " outside the query: " + d.message());
        if (d.message().isBlank() || d.message().contains("\n")) throw new AssertionError("bad message: " + quote(d.message()));
        if (d.message().startsWith("internal error")) throw new AssertionError(d.message());
        String rendered = d.render(q);
        if (!rendered.contains("^")) throw new AssertionError("no caret: " + rendered);
    }

    static String quote(String s) {
        return "'" + (s.length() > 300 ? s.substring(0, 300) + "..." : s).replace("\n", "\\n") + "'";
    }

    /** Regression (query fuzz, seed 20261121, case 4764): a newline in a quoted name split the message. */
    @Test
    void aNewlineInAQuotedNameStaysOnOneLine() throws Exception {
        String q = "instructions where live at \"(.|\\n)*\"";
        Fuzz.Outcome<Integer> o = Fuzz.bounded(quote(q), 20_000, () -> judge(q, modules().get(0), 0));
        assertEquals(1, o.value(), () -> String.valueOf(o.thrown()));
    }

    // ---- deep nesting: refused with a message, never a StackOverflowError ----

    static final int DEEP = 10_000;

    static QueryException refusedQuickly(String q) {
        Fuzz.Outcome<Integer> o = Fuzz.bounded(quote(q), 20_000, () -> {
            Highlight.of(q, CATALOG);
            Completion.at(q, q.length(), CATALOG);
            Completion.at(q, q.length() / 2, CATALOG);
            Parser.needsMore(q);
            Query.compile(q, CATALOG).run(new EvalContext(modules().get(0)));
            return 0;
        });
        if (o.thrown() instanceof QueryException e) {
            checkDiagnostic(q, e);
            return e;
        }
        throw new AssertionError("expected a diagnostic for " + quote(q) + ", got " + o.thrown(), o.thrown());
    }

    @Test
    void tenThousandParenthesesAreRefused() {
        QueryException e = refusedQuickly("values where " + "(".repeat(DEEP) + "size > 1" + ")".repeat(DEEP));
        assertEquals("expression nested too deeply (more than " + Parser.MAX_DEPTH + " levels)", e.diagnostic().message());
    }

    @Test
    void tenThousandNotsAreRefused() {
        QueryException e = refusedQuickly("values where " + "not ".repeat(DEEP) + "temp");
        assertTrue(e.diagnostic().message().startsWith("expression nested too deeply"), e.diagnostic().message());
    }

    @Test
    void unclosedAndMixedNestingIsRefused() {
        refusedQuickly("values where " + "(not ".repeat(DEEP));
        refusedQuickly("values where " + "(".repeat(DEEP));
        refusedQuickly("values show " + "count(".repeat(DEEP));
        refusedQuickly("values where " + ")".repeat(DEEP));
    }

    @Test
    void deeplyNestedRegexIsRefused() {
        QueryException e = refusedQuickly("values where name ~ \"" + "(".repeat(DEEP) + "a" + ")".repeat(DEEP) + "\"");
        assertTrue(e.diagnostic().message().startsWith("regular expression"), e.diagnostic().message());
    }

    @Test
    void longFlatQueriesStillRun() throws Exception {
        // As many conditions as a query may have (Parser.MAX_CONDITIONS); one more is refused.
        String q = "values where " + "size > 1 or ".repeat(Parser.MAX_CONDITIONS - 1) + "phi";
        Fuzz.Outcome<Integer> o = Fuzz.bounded(quote(q), 20_000, () -> judge(q, modules().get(0), 0));
        assertEquals(2, o.value(), () -> String.valueOf(o.thrown()));
    }

    // ---- regular expressions that cost too much ----

    /** Found by the script fuzzer: a 100,000-character literal took seconds to compile, in the highlighter too. */
    @Test
    void aHugeRegexIsRefusedQuickly() {
        QueryException e = refusedQuickly("values where name ~ \"" + "x".repeat(100_000) + "\"");
        assertEquals("regular expression too long (100000 characters, at most 1000)", e.diagnostic().message());
    }

    static HloModule withName(String name) throws Exception {
        String dump = "BufferAssignment:\nallocation 0: size 32, parameter 0, shape |f32[8]| at ShapeIndex {}:\n"
                + " value: <0 " + name + " @0> (size=32,offset=0): f32[8]{0}\n";
        return DumpLoader.loadText("module_0001.jit_f.cpu_after_optimizations-buffer-assignment.txt", dump);
    }

    @Test
    void aLargeRegexOnALongValueStopsOnInterrupt() throws Exception {
        // RE2/J is linear in the value but also in the pattern: 90,000 elements over 400,000
        // characters take minutes, so the matcher's own interrupt check must stop it.
        HloModule m = withName("x".repeat(400_000));
        String q = "values where name ~ \"(x{0,300}){0,300}y\"";
        AtomicReference<Object> result = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                result.set(Query.compile(q, CATALOG).run(new EvalContext(m)));
            } catch (QueryException e) {
                result.set(e);
            }
        });
        t.start();
        // Interrupted only once it is inside the matcher: the stop must come from the regex's own
        // check, not from the evaluator before it starts matching.
        while (t.isAlive() && !inRegex(t)) Thread.onSpinWait();
        assertTrue(t.isAlive(), "the pattern should still be matching: " + result.get());
        t.interrupt();
        t.join(20_000);
        assertTrue(!t.isAlive(), "the regex did not stop on interrupt");
        assertTrue(result.get() instanceof QueryException e && e.diagnostic().message().equals("query cancelled"), String.valueOf(result.get()));
    }

    private static boolean inRegex(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) if (e.getClassName().startsWith("com.google.re2j.")) return true;
        return false;
    }

    /** The JDK's engine recursed per character here and overflowed the stack; RE2/J does not recurse. */
    @Test
    void aRegexOverALongValueRunsOnASmallStack() throws Exception {
        HloModule m = withName("ab".repeat(200_000));
        String q = "values where name ~ \"(a|b)*c\"";
        AtomicReference<Object> result = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                result.set(Query.compile(q, CATALOG).run(new EvalContext(m)));
            } catch (QueryException | RuntimeException | StackOverflowError e) {
                result.set(e);
            }
        }, "small-stack", 256 * 1024);
        t.start();
        t.join();
        assertTrue(result.get() instanceof Table tb && tb.rows().isEmpty(), String.valueOf(result.get()));
    }
}
