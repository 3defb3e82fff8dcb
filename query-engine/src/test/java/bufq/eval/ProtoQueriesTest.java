package bufq.eval;

import bufq.analysis.blame.Blame;
import bufq.units.Units;
import bufq.analysis.timeline.Timeline;
import bufq.analysis.liveness.Liveness;
import bufq.dump.DumpLoader;
import bufq.model.HeapEvent;
import bufq.model.HloModule;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code events} and {@code modules} entities and {@code timeline by events} on the proto corpus. */
class ProtoQueriesTest {
    static Path corpus(String rel) {
        return Corpus.require("jax-0.10.2-proto/" + rel);
    }

    static HloModule cnn() throws Exception {
        return DumpLoader.load(List.of(corpus("cnn/module_0000.jit_step.cpu_after_optimizations.hlo.pb"))).get(0);
    }

    static Table run(String q, EvalContext ctx) throws Exception {
        return Query.compile(q, Catalog.standard()).run(ctx);
    }

    @Test
    void eventsAreTheTraceInOrderWithARunningHeap() throws Exception {
        HloModule m = cnn();
        List<HeapEvent> events = m.heapEvents();
        assertFalse(events.isEmpty());
        Table t = run("events show seq, kind, bytes, heap_bytes", new EvalContext(m));
        assertEquals(events.size(), t.rows().size());
        long heap = 0;
        for (int i = 0; i < t.rows().size(); i++) {
            List<Object> r = t.rows().get(i);
            assertEquals((long) i, r.get(0));
            heap += (Long) r.get(2);
            assertEquals(heap, r.get(3), "heap after event " + i);
        }
        assertEquals(0L, heap, "every byte the trace takes it gives back");
        Table kinds = run("events group by kind show kind, count() order by kind", new EvalContext(m));
        assertEquals("ALLOC", kinds.rows().get(0).get(0));
        assertEquals(kinds.rows().get(1).get(1), (long) events.stream().filter(e -> e.kind().equals("FREE")).count());
    }

    @Test
    void modulesRankAcrossAProfile() throws Exception {
        List<HloModule> all = DumpLoader.load(List.of(corpus("profile/profile.xplane.pb")));
        assertEquals(7, all.size());
        EvalContext ctx = new EvalContext(all.get(0), null, ModuleRow.of(all));
        Table t = run("modules order by peak_bytes desc limit 5 show handle, kind, peak_bytes", ctx);
        assertEquals(5, t.rows().size());
        for (int i = 1; i < 5; i++) assertTrue((Long) t.rows().get(i - 1).get(2) >= (Long) t.rows().get(i).get(2));
        for (List<Object> r : t.rows()) assertEquals("profile", r.get(1));
        long max = all.stream().mapToLong(m -> Liveness.of(m).peakBytes()).max().orElseThrow();
        assertEquals(max, t.rows().get(0).get(2));
        // Without the session's list, the entity is the one module.
        assertEquals(1, run("modules", new EvalContext(all.get(0))).rows().size());
    }

    @Test
    void eventTimelineSetsTheTracePeakBesideTheStepPeak() throws Exception {
        HloModule m = cnn();
        List<Output> out = Timeline.events(m, 80);
        Table cmp = (Table) out.get(1);
        long tracePeak = m.heapEvents().stream().mapToLong(HeapEvent::heapBytes).max().orElseThrow();
        assertEquals(tracePeak, cmp.rows().get(0).get(1));
        long stepPeak = Liveness.of(m).peakBytes();
        assertEquals(stepPeak, cmp.rows().get(1).get(1));
        assertEquals(stepPeak, (Long) cmp.rows().get(2).get(1) + (Long) cmp.rows().get(3).get(1), "traced + outside = the step's bytes");
    }

    @Test
    void theTracePeakIsComparedWhereTheTracePeaks() throws Exception {
        // The profile's jit_f: the trace peaks at event 9 (step 12) with what bufq counts in its one
        // traced allocation there; bufq's module-wide peak is at step 15, where that allocation holds less.
        HloModule m = DumpLoader.load(List.of(corpus("profile/profile.xplane.pb"))).stream()
                .filter(x -> x.info().name().equals("jit_f")).findFirst().orElseThrow();
        Table cmp = (Table) Timeline.events(m, 80).get(1);
        long tracePeak = (Long) cmp.rows().get(0).get(1);
        int stepPeak = Liveness.of(m).peakTime();
        Integer traceStep = m.timeOf(m.heapEvents().stream().filter(e -> e.heapBytes() == tracePeak).findFirst().orElseThrow().instruction());
        assertTrue(traceStep != stepPeak, "the case this test is about: two different steps");
        List<Object> where = cmp.rows().get(4);
        assertEquals(tracePeak, where.get(1), "bufq counts the trace's peak where the trace peaks");
        assertTrue(((String) where.get(2)).startsWith("step " + traceStep + " "), where.toString());
        String notes = String.join("\n", cmp.notes());
        assertFalse(notes.contains("differ"), notes);
        assertTrue(notes.contains("agree: at step " + traceStep), notes);
        long inTracedAtPeak = (Long) cmp.rows().get(2).get(1);
        assertTrue(notes.contains("module-wide peak is at step " + stepPeak + ", not step " + traceStep), notes);
        assertTrue(notes.contains(bufq.units.Units.human(tracePeak - inTracedAtPeak) + " less"), notes);
    }

    @Test
    void blameByStackUsesWholeStacks() throws Exception {
        HloModule m = DumpLoader.load(List.of(corpus("bf16-mlp/module_0000.jit_f.cpu_after_optimizations.hlo.pb"))).get(0);
        assertTrue(m.instructions().stream().anyMatch(i -> i.stack().size() >= 3), "stacks from stack_frame_index");
        Table t = (Table) Blame.atPeak(m, bufq.analysis.blame.BlameBy.STACK, 0).get(0);
        Table byOp = (Table) Blame.atPeak(m, bufq.analysis.blame.BlameBy.OPCODE, 0).get(0);
        long level1 = 0, all = 0;
        for (List<Object> r : t.rows()) if ((Long) r.get(0) == 1) level1 += (Long) r.get(2);
        for (List<Object> r : byOp.rows()) all += (Long) r.get(1);
        assertEquals(all, level1, "level-1 rows add up to the peak");
        assertTrue(t.rows().stream().anyMatch(r -> (Long) r.get(0) == 3 && r.get(1).toString().split(" > ").length == 3), t.toString());
    }

    @Test
    void liveDoesNotApplyToEvents() throws Exception {
        bufq.lang.QueryException e = org.junit.jupiter.api.Assertions.assertThrows(bufq.lang.QueryException.class,
                () -> Query.compile("events where live at 3", Catalog.standard()));
        assertTrue(e.getMessage().contains("'live' does not apply"), e.getMessage());
    }
}
