package bufq.analysis.advise;

import bufq.analysis.whatif.ShortestCondition;
import bufq.analysis.diff.DiffTables;
import bufq.analysis.diff.ModuleDiff;
import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.analysis.sharding.Replication;
import bufq.analysis.sharding.ShardingChanges;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two out-of-memory cases of the TPU corpus that a replicated argument causes, each beside the
 * compile that fixed it: the shard finding's measured saving is held to what the fix really saved
 * (the colour-0 peak of the failing dump minus the fixed dump's, each recomputed), within 10%.
 */
class ShardRuleCorpusTest {
    static HloModule load(String folder) throws Exception {
        return DumpLoader.load(List.of(Corpus.require("tpu/" + folder + "/dump"))).get(0);
    }

    /** The shard rule's largest measured finding on {@code m}. */
    static Advisor.Measured best(HloModule m) throws Exception {
        List<Advisor.Measured> found = Advisor.run(m, List.of(new ShardRule()), Catalog.standard(), TilingModel.TPU, n -> null);
        assertTrue(!found.isEmpty(), m.handle() + ": a shard finding");
        return found.get(0);
    }

    static void withinTenPercentOfTheFix(String failing) throws Exception {
        HloModule m = load(failing), fixed = load(failing + "-fixed");
        long real = Liveness.of(m).peakBytes(0) - Liveness.of(fixed).peakBytes(0);
        Advisor.Measured x = best(m);
        double off = Math.abs(x.saves() - real) / (double) real;
        assertTrue(off <= 0.10, failing + ": shard saves " + x.saves() + " B, the fixed compile's peak is " + real + " B lower ("
                + Math.round(100 * off) + "% off)");
    }

    @Test
    void shardingTheReplicatedEmbeddingSavesWhatTheFixSaved() throws Exception {
        withinTenPercentOfTheFix("oom/replicated-embedding");
        Advisor.Measured x = best(load("oom/replicated-embedding"));
        assertTrue(x.advice().finding().startsWith("shard params['embed'] and its optimizer state (opt_state[0].mu['embed'],"
                + " opt_state[0].nu['embed']) over the mesh (4 devices): replicated"), x.advice().finding());
    }

    @Test
    void shardingTheReplicatedAdamStateSavesWhatTheFixSavedAndComesFirst() throws Exception {
        withinTenPercentOfTheFix("oom/replicated-adam");
        HloModule m = load("oom/replicated-adam");
        List<Advisor.Measured> all = Advisor.run(m, Rules.standard(), Catalog.standard(), TilingModel.TPU, n -> null);
        assertEquals("shard", all.get(0).advice().rule(), "advise's first finding: " + all.get(0).advice().finding());
        assertTrue(all.get(0).advice().finding().startsWith("shard 8 leaves and their optimizer state over the mesh (4 devices)"),
                all.get(0).advice().finding());
    }

    /**
     * The replicated embedding's compile-time OOM: advise's one ranked list puts the sharding fix first.
     * Its figure is the whatif of the edit the real fixed compile made (that pair's colour-0 peaks differ
     * by about as much), while the half-precision row halves every large f32 buffer, a change the fixed
     * compile did not make; on the old ranking bf16 (5.1 GiB) came above shard (4.4 GiB).
     */
    @Test
    void shardingTheReplicatedEmbeddingComesFirstInAdvise() throws Exception {
        HloModule m = load("oom/replicated-embedding");
        List<Advisor.Measured> all = Advisor.run(m, Rules.standard(), Catalog.standard(), TilingModel.TPU, n -> null);
        assertEquals("shard", all.get(0).advice().rule(), "advise's first finding: " + all.get(0).advice().finding());
        assertTrue(all.get(0).advice().finding().startsWith("shard params['embed'] and its optimizer state"), all.get(0).advice().finding());
        for (Advisor.Measured x : all.subList(1, all.size()))
            assertTrue(x.saves() <= all.get(0).saves(), x.advice().rule() + " saves " + x.saves() + " B, above shard's " + all.get(0).saves());
        withinTenPercentOfTheFix("oom/replicated-embedding");
    }

    @Test
    void theFixedCompilesHaveNothingLeftToShardThatMatters() throws Exception {
        for (String f : List.of("oom/replicated-embedding-fixed", "oom/replicated-adam-fixed")) {
            HloModule m = load(f);
            long peak = Liveness.of(m).peakBytes();
            for (Replication.Group g : Replication.of(m).groups())
                assertTrue(g.bytes() < ShardRule.SHARE * peak, f + ": " + g.leaf() + " holds " + g.bytes() + " B replicated");
            assertEquals(List.of(), Advisor.run(m, List.of(new ShardRule()), Catalog.standard(), TilingModel.TPU, n -> null));
        }
    }

    @Test
    void theAuditOfTheTensorParallelMlpCutsEachArrayOverAllFourDevices() throws Exception {
        HloModule m = load("tp-mlp");
        List<Output> out = ShardingAudit.report(m, Catalog.standard(), TilingModel.TPU, n -> null);
        Table t = (Table) out.get(0);
        assertTrue(t.title().startsWith("sharding (jit_train_step: 4 devices"), t.title());
        assertTrue(t.rows().size() >= 10, "rows: " + t.rows().size());
        int now = t.columnIndex("now"), bytes = t.columnIndex("bytes"), sharded = t.columnIndex("sharded");
        for (List<Object> r : t.rows()) {
            String w = (String) r.get(now);
            assertTrue(w.equals("replicated") || w.equals("1/2 per device, 2 copies"), w);
            long factor = w.equals("replicated") ? 4 : 2;
            assertEquals((long) r.get(bytes), factor * (long) r.get(sharded), r.toString());
        }
        assertTrue(t.notes().stream().anyMatch(n -> n.startsWith("per device, 1 of 4 (num_partitions=4 in module_0000.jit_train_step")), t.notes().toString());
    }

    /** The audit's whatif lines, the "all at once" note's too, name their values by a condition, never by a long list of ids. */
    @Test
    void theAuditsWhatifsAreConditionsNotIdLists() throws Exception {
        HloModule m = load("oom/replicated-adam");
        Table t = (Table) ShardingAudit.report(m, Catalog.standard(), TilingModel.TPU, n -> null).get(0);
        String all = t.notes().stream().filter(n -> n.startsWith("all ")).findFirst().orElseThrow(() -> new AssertionError(t.notes().toString()));
        assertTrue(all.startsWith("all 15 at once: saves 7.8GiB of the 14.5GiB peak ("), all);
        assertTrue(!all.contains("id in (") && !all.contains("..."), all);
        int w = t.columnIndex("whatif");
        // a few ids say themselves; more are named by what they share
        for (List<Object> r : t.rows()) assertTrue(((String) r.get(w)).chars().filter(c -> c == ',').count() < ShortestCondition.FEW
                || !((String) r.get(w)).contains("id in ("), r.toString());
    }

    @Test
    void diffNamesTheShardingThatChanged() throws Exception {
        HloModule fixed = load("oom/replicated-embedding-fixed"), failing = load("oom/replicated-embedding");
        List<ShardingChanges.Change> cs = ShardingChanges.between(fixed, failing);
        assertEquals(List.of("params['embed']: 1/4 per device -> replicated", "opt_state[0].nu['embed']: 1/4 per device -> replicated",
                "opt_state[0].mu['embed']: 1/4 per device -> replicated"), cs.stream().map(ShardingChanges.Change::line).toList());
        Table summary = (Table) DiffTables.render(ModuleDiff.compare(fixed, failing)).get(0);
        assertTrue(summary.notes().contains("sharding: params['embed']: 1/4 per device -> replicated"), summary.notes().toString());
        assertEquals(4L * cs.get(0).bytesBefore(), cs.get(0).bytesAfter(), "replicated holds the whole array on each device");
    }

    @Test
    void theGatheredUnembeddingHeldAcrossThePeakIsFlaggedWithWhatRegatheringSaves() throws Exception {
        HloModule m = load("oom/replicated-embedding");
        List<Advisor.Measured> found = Advisor.run(m, List.of(new RegatherRule()), Catalog.standard(), TilingModel.TPU, n -> null);
        assertEquals(1, found.size());
        Advice a = found.get(0).advice();
        // all-gather.235: the bf16 copy of params['unembed'] (f32[512,256000] per device) gathered whole, 1000 MiB
        assertTrue(a.finding().startsWith("1 all-gathered weight (params['unembed'], 1000.0MiB) is held across the peak"), a.finding());
        assertEquals("all-gather.235", a.values().get(0).name());
        assertEquals(ShardingAudit.saves(m, a.edits(), Catalog.standard(), TilingModel.TPU, n -> null), found.get(0).saves());
        assertTrue(found.get(0).saves() > 0);
    }
}
