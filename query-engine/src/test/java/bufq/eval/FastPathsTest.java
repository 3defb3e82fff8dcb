package bufq.eval;

import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.lang.QueryException;
import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModuleBuilder;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.HloModule;
import bufq.model.Shape;
import bufq.table.Table;
import bufq.testing.TestModules;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The fast paths of the executor give exactly what the plain ones give. */
class FastPathsTest {
    private static Table run(HloModule m, String q) throws QueryException {
        return Query.compile(q, Catalog.standard()).run(new EvalContext(m));
    }

    /** {@code order by ... limit k} (bounded heap) equals the full stable sort cut to k. */
    @Test
    void topKEqualsFullSortThenCut() throws QueryException {
        String[] orders = {
            "color desc, start", "start desc", "end, color desc, size", "dtype", "dtype desc, id desc",
            "size desc", "start", "end desc", "op_name desc, color", "color",
        };
        for (long seed = 1; seed <= 4; seed++) {
            HloModule m = TestModules.random(seed, 700, 60);   // many ties; 1 in 20 values without a range (nulls)
            for (String o : orders) {
                for (String where : new String[] {"", "where color != 1 "}) {
                    String base = "values " + where + "order by " + o + " show id, color, start, end, dtype";
                    Table all = run(m, base);
                    for (int k : new int[] {0, 1, 2, 7, 50, 199, all.size() / 2}) {
                        Table top = run(m, base + " limit " + k);
                        assertEquals(all.rows().subList(0, Math.min(k, all.size())), top.rows(), base + " limit " + k);
                        assertEquals(all.columns(), top.columns());
                    }
                }
            }
        }
    }

    /** Sort keys that are not shown still order the rows, and the hidden column is dropped. */
    @Test
    void topKWithHiddenSortColumn() throws QueryException {
        HloModule m = TestModules.random(9, 500, 40);
        Table all = run(m, "values order by start desc, size show id");
        Table top = run(m, "values order by start desc, size limit 13 show id");
        assertEquals(1, top.width());
        assertEquals(all.rows().subList(0, 13), top.rows());
    }

    @Test
    void topKClassKeepsArrivalOrderForTies() {
        Random r = new Random(3);
        for (int round = 0; round < 200; round++) {
            int n = r.nextInt(300);
            List<int[]> items = new ArrayList<>();
            for (int i = 0; i < n; i++) items.add(new int[] {r.nextInt(1 + round % 10), i});
            Comparator<int[]> byKey = Comparator.comparingInt(a -> a[0]);
            if (round % 2 == 1) byKey = byKey.reversed();
            List<int[]> sorted = new ArrayList<>(items);
            sorted.sort(byKey);
            int k = r.nextInt(n + 2);
            TopK<int[]> top = new TopK<>(k, byKey);
            for (int[] it : items) top.offer(it);
            List<int[]> got = top.result();
            List<int[]> want = sorted.subList(0, Math.min(k, n));
            assertEquals(want.size(), got.size());
            for (int i = 0; i < want.size(); i++) assertSame(want.get(i), got.get(i), "round " + round + " at " + i);
        }
    }

    /** The steps read from the module's liveness equal summing the values live at each step; computed once. */
    @Test
    void stepsEqualBruteForce() throws QueryException {
        for (HloModule m : List.of(TestModules.toy(), TestModules.random(5, 300, 50), oddRanges())) {
            List<Step> steps = Step.of(m);
            assertEquals(m.steps(), steps.size());
            for (Step s : steps) {
                List<HloValue> live = LiveValues.at(m, s.time());
                // live_bytes is the device memory's (colour 0 where there are other spaces); live_values counts every space
                assertEquals(LiveValues.inDevice(m, s.time()).stream().mapToLong(HloValue::logicalSize).sum(), s.liveBytes(), "step " + s.time());
                assertEquals(live.size(), s.liveValues(), "step " + s.time());
            }
            assertSame(Liveness.of(m), Liveness.of(m));
            assertThrows(UnsupportedOperationException.class, () -> steps.add(steps.get(0)));
            assertThrows(IndexOutOfBoundsException.class, () -> steps.get(steps.size()));
            Table t = run(m, "steps order by live_bytes desc, time limit 3");
            assertEquals(3, t.size());
        }
        // A module with the same content is a different module: its own liveness.
        HloModule a = TestModules.random(5, 300, 50), b = TestModules.random(5, 300, 50);
        assertEquals(Step.of(a), Step.of(b));
        assertTrue(Liveness.of(a) != Liveness.of(b));
    }

    /** instructions.live_bytes from the one-sweep memo equals summing the values live at each time. */
    @Test
    void instructionLiveBytesEqualLiveBytesAt() throws QueryException {
        for (HloModule m : List.of(TestModules.toy(), TestModules.random(6, 400, 30), oddRanges())) {
            Table t = run(m, "instructions show name, time, live_bytes");
            for (List<Object> row : t.rows()) {
                Long time = (Long) row.get(1);
                // Summed by hand; ranges are cut to the schedule, so past its end nothing is live.
                Object want = time == null ? null : time >= m.steps() ? 0L
                        : LiveValues.inDevice(m, time.intValue()).stream().mapToLong(HloValue::logicalSize).sum();
                assertEquals(want, row.get(2), "live_bytes of " + row.get(0));
            }
        }
    }

    /** Ranges that start before 0, end past the last step, or are empty; an instruction past the end. */
    static HloModule oddRanges() {
        Shape s = TestModules.plain("f32", 8);
        List<HloValue> values = List.of(
                TestModules.value(1, "a", "{}", 0, 32, 0, 0, s, new LiveRange(-3, 1), List.of()),
                TestModules.value(2, "b", "{}", 0, 32, 0, 0, s, new LiveRange(2, 9), List.of()),
                TestModules.value(3, "c", "{}", 0, 32, 0, 0, s, new LiveRange(3, 2), List.of()),
                TestModules.value(4, "d", "{}", 0, 32, 0, 0, s, new LiveRange(7, 8), List.of()),
                TestModules.value(5, "e", "{}", 0, 32, 0, 0, s, new LiveRange(0, 4), List.of()));
        List<BufferAllocation> allocs = List.of(TestModules.alloc(0, 128, 0, -1, false, false, null, List.of(1L, 2L, 3L, 4L, 5L)));
        List<HloInstruction> ins = List.of(
                TestModules.ins("a", 0, s, "parameter", null, List.of()),
                TestModules.ins("b", 2, s, "copy", null, List.of()),
                TestModules.ins("c", 4, s, "copy", null, List.of()),
                TestModules.ins("d", 7, s, "copy", null, List.of()),
                TestModules.ins("e", -1, s, "copy", null, List.of()));
        return new HloModuleBuilder(TestModules.info("odd", 4)).allocations(allocs).values(values).instructions(ins)
                .sequence(List.of("a", "x", "b", "y", "c")).build();
    }

    /** A literal pattern (a substring search) selects what the regex engine selects. */
    @Test
    void literalRegexMatchesLikeThePattern() throws QueryException {
        assertEquals("fusion", Conditions.literal("fusion"));
        assertEquals("op 1-2,=<>/", Conditions.literal("op 1-2,=<>/"));
        assertEquals("", Conditions.literal(""));
        for (String meta : new String[] {"a.b", "^a", "a$", "a|b", "a?", "a*", "a+", "(a)", "[a]", "a{2}", "\\d", "\uD83D\uDE00"}) {
            assertNull(Conditions.literal(meta), meta);
        }
        HloModule m = TestModules.random(7, 400, 120);
        for (String lit : new String[] {"op", "op.1", "op.11", "1", "p.2", "", "zz", "op.119"}) {
            assertEquals(lit.contains("."), Conditions.literal(lit) == null, lit);
            String text = lit.replace(".", "[.]");   // a literal for the substring path when it has no dot
            for (boolean neg : new boolean[] {false, true}) {
                String op = neg ? " !~ " : " ~ ";
                Table fast = run(m, "values where name" + op + "\"" + text.replace("[.]", "_") + "\" show id");
                // (?:...) is not a literal: the regex engine runs it.
                Table engine = run(m, "values where name" + op + "\"(?:" + text.replace("[.]", "_") + ")\" show id");
                assertEquals(engine.rows(), fast.rows(), text);
                List<Object> want = new ArrayList<>();
                Pattern p = Pattern.compile(text);
                for (HloValue v : m.values()) if (p.matcher(v.name()).find() != neg) want.add(v.id());
                assertEquals(want, run(m, "values where name" + op + "\"" + text + "\" show id")
                        .rows().stream().map(r -> r.get(0)).toList(), text);
            }
        }
        // Substrings that do occur: names are op.N.
        assertTrue(run(m, "values where name ~ \"op\" show id").size() == m.values().size());
    }

    /** Grouping by one key (keyed by the value itself) gives each distinct value once, in key order, nulls last. */
    @Test
    void groupBySingleKeyWithNulls() throws QueryException {
        HloModule m = TestModules.random(12, 600, 40);
        Table t = run(m, "values group by start show start, count(), sum(size)");
        java.util.TreeMap<Long, long[]> want = new java.util.TreeMap<>();
        long[] nulls = new long[2];
        for (HloValue v : m.values()) {
            long[] acc = v.range() == null ? nulls : want.computeIfAbsent((long) v.range().start(), k -> new long[2]);
            acc[0]++;
            acc[1] += v.size();
        }
        List<List<Object>> rows = new ArrayList<>();
        want.forEach((k, acc) -> rows.add(java.util.Arrays.asList(k, acc[0], acc[1])));
        if (nulls[0] > 0) rows.add(java.util.Arrays.asList(null, nulls[0], nulls[1]));
        assertTrue(nulls[0] > 0);
        assertEquals(rows, t.rows());
        // Two keys: the same groups split further, same total.
        Table two = run(m, "values group by start, color show start, color, count()");
        assertEquals((long) m.values().size(), two.rows().stream().mapToLong(r -> (Long) r.get(2)).sum());
        assertEquals(run(m, "values group by start show start, count() order by count() desc, start").rows(),
                run(m, "values group by start show start, count() order by count() desc, start limit 1000").rows());
    }
}
