package bufq.eval;

import bufq.analysis.liveness.Liveness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.lang.QueryException;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Column;
import bufq.table.ColumnType;
import bufq.table.Table;
import bufq.testing.TestModules;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The evaluator on the hand-built toy module (see {@link TestModules#toy()} for its timeline). */
class QueryTest {
    private static final HloModule TOY = TestModules.toy();

    static Table run(String q) throws QueryException {
        return Query.compile(q, Catalog.standard()).run(new EvalContext(TOY, TilingModel.TPU));
    }

    /** Rows as "a|b|c" lines, for compact expectations. */
    static String rows(Table t) {
        return t.rows().stream().map(r -> r.stream().map(String::valueOf).collect(Collectors.joining("|")))
                .collect(Collectors.joining("\n"));
    }

    static String header(Table t) {
        return t.columns().stream().map(c -> c.name() + ":" + c.type().name().toLowerCase()).collect(Collectors.joining(" "));
    }

    /** The entity names known without making the catalog are its own, in its order. */
    @Test
    void theStandardEntitiesAreTheCatalogs() {
        assertEquals(Catalog.standard().entities(), Catalog.standardEntities());
    }

    @Test
    void canonicalExample() throws QueryException {
        Table t = run("values where color=1 and live at 3");
        assertEquals("id:int label:string color:int size:bytes offset:int allocation:int shape:string start:int end:int", header(t));
        assertEquals("2|fusion.1|1|4096|0|2|f32[8,128]{1,0:T(8,128)S(1)}|2|3\n3|fusion.2|1|32|4096|2|bf16[4,4]|3|4", rows(t));
    }

    @Test
    void liveAtPeakOrderedBySize() throws QueryException {
        // peak of the toy's device memory (color 0) is step 5 (12296 logical bytes): p0, copy.3, tuple.4
        assertEquals(5, Liveness.of(TOY).peakTime());
        assertEquals("4|copy.3\n0|p0\n5|tuple.4", rows(run("values where live at peak order by size desc limit 10 show id, name")));
        assertEquals("4|copy.3", rows(run("values where live at peak order by size desc limit 1 show id, name")));
    }

    @Test
    void sumAtPeakEqualsLiveBytes() throws QueryException {
        Table t = run("values where live at peak show sum(logical_size)");
        assertEquals("sum(logical_size):bytes", header(t));
        assertEquals(Liveness.of(TOY).liveBytes(5), t.cell(0, 0));
        assertEquals(12296L, t.cell(0, 0));
    }

    @Test
    void regexAndSize() throws QueryException {
        Table t = run("values where name ~ \"fusion\" and size >= 4KiB show id, name, size, offset, allocation");
        assertEquals("2|fusion.1|4096|0|2", rows(t));
        assertEquals(List.of(new Column("id", ColumnType.INT), new Column("name", ColumnType.STRING),
                new Column("size", ColumnType.BYTES), new Column("offset", ColumnType.INT),
                new Column("allocation", ColumnType.INT)), t.columns());
    }

    @Test
    void groupByColor() throws QueryException {
        Table t = run("values group by color show color, count(), sum(size)");
        assertEquals("color:int count():int sum(size):bytes", header(t));
        assertEquals("0|5|26120\n1|2|4128", rows(t));
    }

    @Test
    void liveDuringOrderedByOffset() throws QueryException {
        assertEquals("fusion.1|0\nfusion.2|4096", rows(run("values where live during 3..5 and color = 1 order by offset show name, offset")));
        assertEquals("fusion.2", rows(run("values where live during 4..5 and color = 1 order by offset show name")));
    }

    @Test
    void temporaryAllocations() throws QueryException {
        Table t = run("allocations where temp order by size desc");
        assertEquals("index:int kind:string size:bytes color:int num_values:int shape:string", header(t));
        assertEquals("2|temp|4128|1|2|null", rows(t));
    }

    @Test
    void instructionsByOpcodeAndOpName() throws QueryException {
        assertEquals("2|fusion.1|fusion|f32[8,128]{1,0:T(8,128)S(1)}|jit(f)/softmax",
                rows(run("instructions where opcode = \"fusion\" and op_name ~ \"softmax\"")));
    }

    @Test
    void stepsByLiveBytes() throws QueryException {
        Table t = run("steps order by live_bytes desc limit 5");
        assertEquals("time:int instruction:string live_bytes:bytes occupied_bytes:bytes live_values:int", header(t));
        // live_bytes and occupied_bytes of the device memory (color 0); live_values counts every space
        assertEquals("5|tuple.4|12296|24584|3\n6|null|12296|24584|3\n4|copy.3|12288|24576|3\n1|p1|5120|9216|2\n2|fusion.1|5120|9216|3", rows(t));
    }

    @Test
    void liveAtInstructionName() throws QueryException {
        assertEquals(rows(run("values where live at 3 show id")), rows(run("values where live at fusion.2 show id")));
        assertEquals(rows(run("values where live during 2..4 show id")), rows(run("values where live during fusion.1..copy.3 show id")));
    }

    @Test
    void paddedSizeFollowsTheTilingModel() throws QueryException {
        String q = "values where id in (0, 4, 6) show id, logical_size, padded_size, padding";
        assertEquals("0|4096|8192|4096\n4|8192|16384|8192\n6|4|512|508", rows(run(q)));
        Table none = Query.compile(q, Catalog.standard()).run(new EvalContext(TOY, TilingModel.NONE));
        assertEquals("0|4096|4096|0\n4|8192|8192|0\n6|4|4|0", rows(none));
    }

    @Test
    void conditions() throws QueryException {
        assertEquals("6", rows(run("values where start is null show id")));
        assertEquals("0\n1\n2\n3\n4\n5", rows(run("values where end is not null show id")));
        assertEquals("2\n3", rows(run("values where not (color = 0) show id")));
        assertEquals("1\n5", rows(run("values where id in (1, 5) or label = \"nothing\" show id")));
        assertEquals("0\n6", rows(run("values where id not in (1, 2, 3, 4, 5) show id")));
        assertEquals("4\n5", rows(run("values where live_out and start > 0 show id")));
        assertEquals("3", rows(run("values where dtype = \"bf16\" show id")));
        assertEquals("0\n1\n4\n5\n6", rows(run("values where name !~ \"^fusion\" show id")));
        assertEquals("0\n1", rows(run("values where kind ~ \"param\" show id")));
        assertEquals("2", rows(run("values where memory_space = 1 show id")));
        assertEquals("4", rows(run("allocations where output show index")));
        assertEquals("3|live-out\n4|output", rows(run("allocations where live_out show index, kind")));
        assertEquals("2|temp", rows(run("allocations where live at 3 and color = 1 show index, kind")));
        assertEquals("fusion.1|p0,p1|fusion.2", rows(run("instructions where name = \"fusion.1\" show name, operands, users"))
                .replace("[", "").replace("]", "").replace(", ", ","));
    }

    @Test
    void aggregatesAndAliases() throws QueryException {
        assertEquals("7|30248|4|16384|4321", rows(run("values show count(), sum(size), min(logical_size), max(size), avg(size)")));
        assertEquals("0|5\n1|2", rows(run("values group by color show color, count() as n order by color")));
        assertEquals("1|2\n0|5", rows(run("values group by color show color, count() as n order by n")));
        assertEquals("0|5\n1|2", rows(run("values group by color show color, count() order by count() desc")));
        assertEquals("1\n0", rows(run("values group by color show color order by sum(size)")));
        assertEquals("color:int count():int", header(run("values group by color")));
        assertEquals("0|0|null", rows(run("values where id > 100 show count(), sum(size), max(size)")));
        assertEquals("fusion.1|fusion.2", rows(run("values where color = 1 show min(name), max(name)")));
    }

    @Test
    void orderByHiddenFieldAndNullsLast() throws QueryException {
        assertEquals("copy.3\np0\ntuple.4\nfusion.2\nfusion.1\np1\nadd.9",
                rows(run("values order by end desc, size desc show name")));
        Table t = run("values order by start desc show id");
        assertEquals(1, t.width());
        assertEquals("5\n4\n3\n2\n1\n0\n6", rows(t));
    }

    @Test
    void indexPathMatchesBruteForce() throws QueryException {
        for (long seed = 1; seed <= 5; seed++) {
            HloModule m = TestModules.random(seed, 3000, 200);
            EvalContext ctx = new EvalContext(m);
            for (int t = 0; t <= 200; t += 13) {
                Table viaIndex = Query.compile("values where live at " + t + " and color = 1 show id", Catalog.standard()).run(ctx);
                Table viaScan = Query.compile("values where color = 1 and (live at " + t + " or false) show id", Catalog.standard()).run(ctx);
                List<Object> brute = new ArrayList<>();
                for (HloValue v : m.values()) if (v.color() == 1 && v.liveAt(t)) brute.add(v.id());
                assertEquals(brute, viaIndex.rows().stream().map(r -> r.get(0)).toList(), "seed " + seed + " t " + t);
                assertEquals(brute, viaScan.rows().stream().map(r -> r.get(0)).toList());
                Table during = Query.compile("values where live during " + t + ".." + (t + 7) + " show id", Catalog.standard()).run(ctx);
                List<Object> bruteDuring = new ArrayList<>();
                for (HloValue v : m.values()) if (v.range() != null && v.range().overlaps(t, t + 7)) bruteDuring.add(v.id());
                assertEquals(bruteDuring, during.rows().stream().map(r -> r.get(0)).toList());
            }
            Table sum = Query.compile("values where live at peak and color = 0 show sum(logical_size)", Catalog.standard()).run(ctx);
            assertEquals(Liveness.of(m).liveBytes(Liveness.of(m).peakTime()), sum.cell(0, 0));
            Table steps = Query.compile("steps order by live_bytes desc limit 1", Catalog.standard()).run(ctx);
            assertEquals(Liveness.of(m).liveBytes(Liveness.of(m).peakTime()), steps.cell(0, 2));
        }
    }

    @Test
    void runtimeNameErrorsCarryASpan() throws QueryException {
        Query q = Query.compile("values where live at fusion.3", Catalog.standard());
        QueryException e = assertThrows(QueryException.class, () -> q.run(new EvalContext(TOY)));
        assertEquals("values where live at fusion.3\n                     ^^^^^^^^\n"
                + "unknown instruction 'fusion.3' in module toy; expected a step number, 'peak', 'claimed_peak' or a scheduled instruction name;"
                + " did you mean 'fusion.1' or 'fusion.2'?", e.diagnostic().render(q.text()));
        QueryException e2 = assertThrows(QueryException.class,
                () -> Query.compile("values where live at add.9", Catalog.standard()).run(new EvalContext(TOY)));
        assertEquals("instruction 'add.9' is not in the instruction sequence", e2.diagnostic().message());
        Table past = run("values where live at 99");
        assertEquals(0, past.size());
        assertEquals(List.of("step 99 is past the last step (6)"), past.notes());
    }

    @Test
    void scriptFieldsExtendTheCatalog() throws QueryException {
        Catalog c = Catalog.standard().withField("values", "waste", ColumnType.BYTES, "padding",
                row -> ((HloValue) row).paddedSize() - ((HloValue) row).logicalSize());
        assertEquals("0|4096\n4|8192\n6|508", rows(Query.compile("values where waste > 0 show id, waste", c).run(new EvalContext(TOY))));
        assertEquals(null, Catalog.standard().field("values", "waste"));
        Catalog bad = Catalog.standard().withField("values", "boom", ColumnType.INT, "", row -> { throw new IllegalStateException("no"); });
        QueryException e = assertThrows(QueryException.class,
                () -> Query.compile("values where boom > 1", bad).run(new EvalContext(TOY)));
        assertEquals("field 'boom' failed: no", e.diagnostic().message());
        Catalog ints = Catalog.standard().withField("steps", "twice", ColumnType.INT, "", row -> ((Step) row).time() * 2);
        assertEquals("6", rows(Query.compile("steps where time = 3 show twice", ints).run(new EvalContext(TOY))));
    }

    /**
     * A result of standard fields is computed when printed; one that shows a script's field, or a
     * padded size under a tiling model that is not built in, is computed while the query runs, where
     * the script host guards its calls.
     */
    @Test
    void onlyResultsThatRunNoScriptAreComputedOnRead() throws QueryException {
        assertTrue(run("values").computedOnRead());
        assertTrue(run("values order by size desc").computedOnRead());
        assertTrue(run("values order by size desc limit 2 show name, padded_size").computedOnRead());
        assertEquals(false, run("values group by color show color, count()").computedOnRead());
        int[] calls = new int[1];
        Catalog c = Catalog.standard().withField("values", "probe", ColumnType.INT, "", row -> ++calls[0]);
        Table t = Query.compile("values show id, probe", c).run(new EvalContext(TOY));
        assertEquals(false, t.computedOnRead());
        assertEquals(t.size(), calls[0], "every row's script field was read inside the query");
        Table w = Query.compile("values where probe > 0 show id", c).run(new EvalContext(TOY));
        assertTrue(w.computedOnRead(), "a script field in the filter only runs inside the query");
        TilingModel scripted = new TilingModel() {
            @Override public String name() { return "page"; }
            @Override public long paddedBytes(bufq.model.Shape shape) { return 4096; }
        };
        Table p = Query.compile("values show id, padded_size", Catalog.standard()).run(new EvalContext(TOY, scripted));
        assertEquals(false, p.computedOnRead());
        assertEquals(rows(Query.compile("values show id, size", Catalog.standard()).run(new EvalContext(TOY))),
                rows(Query.compile("values show id, size", Catalog.standard()).run(new EvalContext(TOY, scripted))));
    }

    @Test
    void failingTilingModelAndInterruptAreQueryErrors() throws QueryException {
        TilingModel broken = new TilingModel() {
            @Override public String name() { return "broken"; }
            @Override public long paddedBytes(bufq.model.Shape shape) { throw new IllegalStateException("no rule for " + shape.dtype()); }
        };
        QueryException e = assertThrows(QueryException.class,
                () -> Query.compile("values show padded_size", Catalog.standard()).run(new EvalContext(TOY, broken)));
        assertEquals("field 'padded_size (tiling broken)' failed: no rule for f32", e.diagnostic().message());

        HloModule big = TestModules.random(9, 20_000, 100);
        Query q = Query.compile("values where size > 0", Catalog.standard());
        Thread.currentThread().interrupt();
        try {
            QueryException c = assertThrows(QueryException.class, () -> q.run(new EvalContext(big)));
            assertEquals("query cancelled", c.diagnostic().message());
        } finally {
            Thread.interrupted();
        }
    }
}
