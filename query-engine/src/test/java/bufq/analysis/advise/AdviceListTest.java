package bufq.analysis.advise;

import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.Failure;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.oom.OomReader;
import bufq.analysis.whatif.EditParser;
import bufq.analysis.whatif.EditSweep;
import bufq.api.Advise;
import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code advise}'s one ranked list holds its promises wherever it runs: one list (then the evidence),
 * ranked by saves, no row's saves above what a real recompilation of its kind delivered on the
 * module's backend, each row with the JAX code to write, and no note that contradicts the rows.
 * On every module of the corpus sweep, and on the committed fixtures (one with a failing allocation).
 */
class AdviceListTest {
    static final Path PAIR = Path.of(System.getProperty("bufq.root", "."))
            .resolve("query-engine/src/test/resources/fixtures/oom-cpu/pair");

    /** The invariants of {@code l}, whatever the module. */
    static void hold(AdviceList l) {
        HloModule m = l.module();
        List<Output> out = l.report();
        assertEquals(2, out.size(), m.handle() + ": one list, then the evidence");
        Table list = (Table) out.get(0);
        assertEquals("advice", list.key());
        assertEquals("evidence", ((Table) out.get(1)).title());
        assertEquals(l.rows().size(), list.size());
        assertTrue(l.failing() ? list.title().startsWith("advice for allocation ") && list.title().contains(" of " + m.handle() + ", the allocation message ")
                : list.title().startsWith("advice for the peak of " + m.handle() + " "), list.title());
        long last = Long.MAX_VALUE;
        int lastTrust = -1;
        boolean lastLowers = false;
        boolean enough = l.need() > 0;   // the rows that each save what the program must save come first, those that keep
                                         // every result first, of those exact ones first
        for (AdviceList.Row r : l.rows()) {
            String row = m.handle() + ": " + r.change() + " " + r.statement();
            if (!r.change().contains(" + ")) {   // each row's effect is its change's
                boolean bf16 = r.change().equals("f32") || r.change().equals("bf16 output") || r.change().equals("scan ys in bf16");
                assertEquals(bf16, r.effect() == Advice.Effect.LOWERS_PRECISION, row);
                assertEquals(r.change().matches("(chunk|microbatch) \\d+ ways"), r.effect() == Advice.Effect.CUTS, row);
                assertEquals(r.change().equals("smaller batch"), r.effect() == Advice.Effect.FEWER_EXAMPLES, row);
            }
            if (enough && r.saves() < l.need()) {
                enough = false;
                last = Long.MAX_VALUE;
            }
            int trust = r.figure().startsWith("exact") ? 0 : r.figure().equals(Recompilation.BOUND) ? 1 : 2;
            if (enough) {
                boolean lowers = r.effect().changesResults();
                assertTrue(lowers || !lastLowers, row + ": keeps every result, below a bf16 change");
                if (lowers != lastLowers) lastTrust = -1;
                assertTrue(trust >= lastTrust, row + ": a less certain figure above it among the rows that save enough");
                if (trust > lastTrust || lowers != lastLowers) last = Long.MAX_VALUE;
                lastTrust = trust;
                lastLowers = lowers;
            }
            assertTrue(r.saves() <= last, row + " saves more than the row above it: not ranked");
            assertTrue(r.saves() >= 0, row);
            last = r.saves();
            if (r.whatifSaves() != null) {
                long cap = (long) (r.whatifSaves() * Recompilation.share(m, r.change(), r.remat()));
                assertTrue(r.saves() <= cap, row + " saves " + r.saves() + " B, above its cap " + cap + " B");
                assertTrue(r.statement().startsWith("whatif "), row);
            } else {
                assertEquals(Remedy.FIT, r.figure(), row);
                assertTrue(r.saves() > 0 && r.statement().startsWith("fit"), row);
            }
            assertTrue(r.jax() != null && !r.jax().isBlank() && !r.jax().startsWith("see the finding"), row + ": jax " + r.jax());
            assertFalse(r.finding().isBlank(), row);
        }
        boolean lowers = !l.rows().isEmpty() && l.rows().get(0).saves() > 0;
        for (String n : l.notes()) {
            if (!l.rows().isEmpty()) assertFalse(n.startsWith("no change found"), m.handle() + ": rows beside " + n);
            if (lowers) assertFalse(n.startsWith("no row lowers"), m.handle() + ": " + n);
        }
        if (l.rows().isEmpty()) assertTrue(l.notes().stream().anyMatch(n -> n.startsWith("no change found")), l.notes().toString());
    }

    /**
     * A scan over steps of time (an ODE solver) stacks [steps, batch, ...] residuals but scans no input
     * of the batch: the microbatch row splits the step's batch, not a scanned xs it does not have.
     */
    @Test
    void aMicrobatchRowSplitsTheBatchWhereTheLoopScansNoInputOfIt() throws Exception {
        Path dir = Path.of(System.getProperty("bufq.root", ".")).resolve("query-engine/src/test/resources/fixtures/tpu-ode");
        HloModule m = DumpLoader.load(List.of(dir.resolve("dump"))).get(0);
        var oom = OomReader.read(Files.readString(dir.resolve("exception.txt")));
        AdviceList l = advise(m, new Advise.Ask(List.of(), oom, "exception.txt", List.of(m), stated(oom), Catalog.standard(),
                TilingModel.TPU, n -> null));
        AdviceList.Row top = l.rows().get(0);
        assertEquals("microbatch 2 ways", top.change(), l.rows().toString());
        assertTrue(top.jax().endsWith("g0, batch.reshape(2, 2048, ...))"), top.jax());
        assertTrue(top.finding().contains("the loop scans no input of the batch"), top.finding());
        // the real 2-microbatch build saved 9,113,368,064 B: the row claims no more
        assertTrue(top.saves() <= 9_113_368_064L, top.saves() + " B claimed");
    }

    static AdviceList advise(HloModule m, Advise.Ask ask) throws Exception {
        AdviceList l = Advise.of(m, ask);
        assertNotNull(l, m.handle() + " has a peak");
        hold(l);
        return l;
    }

    /** The capacity the messages state, as a client adopts it when its user set none; null when they state none. */
    static Capacity stated(bufq.analysis.oom.OomText oom) {
        bufq.analysis.fit.Capacities.Stated s = bufq.analysis.fit.Capacities.stated(oom, "run.log", bufq.analysis.fit.Capacities.Said.NONE);
        return s == null ? null : bufq.analysis.fit.Capacities.resolve(new bufq.analysis.fit.Capacities.Said(s.choice(), null, -1, "none"));
    }

    static Advise.Ask alone(HloModule m) {
        return new Advise.Ask(List.of(), null, null, List.of(m), null, Catalog.standard(), TilingModel.TPU, n -> null);
    }

    /** The module of the committed real fixture {@code name}'s folder {@code part} ({@code contrastive}, {@code whole}). */
    static HloModule fixture(String name, String part) throws Exception {
        Path base = Path.of(System.getProperty("bufq.root", ".")).resolve("query-engine/src/test/resources/fixtures").resolve(name);
        return DumpLoader.load(List.of(base.resolve(part))).get(0);
    }

    /** The fixture's second program failed: the list is for that allocation, each whatif line reproducing its figure. */
    @Test
    void theFailingAllocationOfTheFixture() throws Exception {
        List<HloModule> modules = DumpLoader.load(List.of(PAIR.resolve("dump")));
        // the program that failed: its allocation 15 is the 4,608,000,000 B the message asked for
        HloModule m = modules.stream().filter(x -> x.allocation(15) != null && x.allocation(15).size() == 4_608_000_000L)
                .findFirst().orElseThrow();
        var oom = OomReader.read(Files.readString(PAIR.resolve("run.log")));
        AdviceList l = advise(m, new Advise.Ask(List.of(), oom, "run.log", modules, new Capacity(7_000_000L * 1024, 0, "--capacity", false),
                Catalog.standard(), TilingModel.NONE, n -> null));
        assertTrue(l.failing());
        assertEquals("advice for allocation 15 of " + m.handle() + ", the allocation message 1 of run.log failed on", l.title());
        // fit's changes of the arrays held beside it (which, depends on the running order the shell knows) beside the rewrites
        assertTrue(l.rows().stream().anyMatch(r -> Remedy.FIT.equals(r.figure())), l.rows().toString());
        assertTrue(l.rows().stream().anyMatch(r -> r.change().startsWith("chunk ")), l.rows().toString());
        assertTrue(l.notes().get(0).contains(" is over by "), l.notes().toString());
        for (AdviceList.Row r : l.rows()) {
            if (r.whatifSaves() == null) continue;
            var edits = EditParser.parse(r.statement().substring("whatif ".length()), Set.copyOf(Catalog.standard().entities())).edits();
            assertEquals(r.whatifSaves().longValue(), EditSweep.run(m, edits, Catalog.standard(), TilingModel.NONE, n -> null).saved(),
                    r.statement());
        }
    }

    /**
     * A kernel matrix holding the whole peak: the chunk row (its count sized, its figure measured)
     * stands for it, not a big-buffer row claiming the matrix not made at all, which no chunking
     * delivers (4 chunks of the real 40,000-point run saved 4.5 GiB of its 6.0 GiB).
     */
    @Test
    void aChunkedBigBufferIsListedOnceAsTheChunkRow() throws Exception {
        Path dir = Path.of(System.getProperty("bufq.root", "."))
                .resolve("query-engine/src/test/resources/fixtures/kernel-smoother");
        HloModule m = DumpLoader.load(List.of(dir)).get(0);
        AdviceList l = advise(m, alone(m));
        AdviceList.Row top = l.rows().get(0);
        assertTrue(top.change().startsWith("chunk "), l.rows().toString());
        assertTrue(top.saves() < Liveness.of(m).peakBytes(), top.toString());
        assertFalse(l.rows().stream().anyMatch(r -> r.change().equals("big-buffer")), l.rows().toString());
    }

    /**
     * A differentiated scan stacks its residuals beside its ys; only the backward pass reads them, so
     * carrying the loss in the scan (or returning the ys in bf16) leaves them: the scan rows count
     * only the stacked outputs the forward pass reads. (A real RNN step with its loss moved into the
     * carry saved 4.6 GB where all four stacked outputs, 8.6 GB, were promised.)
     */
    @Test
    void aDifferentiatedScansResidualsAreNotItsYs() throws Exception {
        Path p = Corpus.require("jax-0.10.2/rnn-scan");
        HloModule m = DumpLoader.load(List.of(p)).get(0);
        AdviceList l = advise(m, alone(m));
        Facts f = new Facts(m);
        List<AdviceList.Row> scan = l.rows().stream().filter(r -> r.change().contains("scan ys")).toList();
        assertFalse(scan.isEmpty(), l.rows().toString());
        for (AdviceList.Row r : scan)
            for (bufq.model.HloValue v : r.evidence())
                assertTrue(f.userOpNames(v).stream().anyMatch(bufq.analysis.category.OpNames::forward),
                        r.change() + ": " + v.label() + " is read only by the backward pass " + f.userOpNames(v));
    }

    /**
     * Gradient accumulation carries the gradients through every microbatch: the MLP step at batch 2,418
     * and the same step compiled with its gradients accumulated over 6 microbatches in a lax.scan carry
     * (fixtures/mlp-batch). The batch's values cut 6 ways save 66,027,520 B in the what-if, more than the
     * real build saved (47,583,224 B); with the f32 carry of its 16 MiB of weights held up to the
     * backward pass's end, the row claims 49,233,920 B, within 4% of what was saved.
     */
    @Test
    void aMicrobatchRowCountsTheGradientsItsScanCarries() throws Exception {
        HloModule m = fixture("mlp-batch", "b2418"), fixed = fixture("mlp-batch", "b2418-microbatched");
        AdviceList.Row micro = advise(m, alone(m)).rows().stream().filter(r -> r.change().equals("microbatch 6 ways")).findFirst().orElseThrow();
        long real = Liveness.of(m).peakBytes() - Liveness.of(fixed).peakBytes();
        assertEquals(47_583_224L, real, "the step and its 6-way microbatched build");
        assertEquals(66_027_520L, micro.whatifSaves(), micro.finding());
        assertEquals(Recompilation.ESTIMATE, micro.figure(), micro.finding());
        assertTrue(micro.finding().contains("the f32 gradients the scan carries, 16.0MiB"), micro.finding());
        assertTrue(micro.saves() < micro.whatifSaves() && Math.abs(micro.saves() - real) < 0.04 * real,
                micro.saves() + " B claimed, " + real + " B saved");
    }

    /**
     * A microbatch cuts what each example makes, never the weights, their gradients or the optimizer's
     * state: on a TPU step whose 8 scanned layers' weights are stacked [8, ...] beside a batch of 8 a
     * chip, the row's values are the activations of the batch alone.
     */
    @Test
    void aMicrobatchLeavesALayerStackOfTheBatchsLengthWhole() throws Exception {
        Path base = Corpus.require("tpu/train-fsdp-scan-remat");
        HloModule m = DumpLoader.load(List.of(base.resolve("dump"))).get(0);
        AdviceList.Row micro = advise(m, alone(m)).rows().stream().filter(r -> r.change().startsWith("microbatch")).findFirst().orElseThrow();
        assertFalse(micro.evidence().isEmpty(), micro.finding());
        for (var v : micro.evidence()) {
            String c = Facts.category(m, v);
            assertFalse(Set.of("weights", "gradients", "optimizer").contains(c), v.label() + " " + v.shape().text() + " is " + c);
        }
        assertTrue(m.values().stream().anyMatch(v -> v.shape() != null && v.shape().rank() >= 2 && v.shape().dim(0) == 8
                && "weights".equals(Facts.category(m, v))), "a stack of the 8 layers' weights");
    }

    /**
     * A recurrence over 2,048 steps of a batch of 2,048 that ran out of memory: the top row
     * microbatches it along axis 1 of the scan's stacked values (the batch), never along the steps,
     * with the least count that saves what the run is over; the same step microbatched 8 ways and run
     * again under the same limit saved more than the row claims.
     */
    @Test
    void aRecurrenceIsMicrobatchedAlongItsBatchAndTheRowCameTrue() throws Exception {
        HloModule m = fixture("rnn-oom", "failing"), fixed = fixture("rnn-oom", "microbatched");
        var oom = OomReader.read(Files.readString(Path.of(System.getProperty("bufq.root", "."))
                .resolve("query-engine/src/test/resources/fixtures/rnn-oom/run.log")));
        AdviceList l = advise(m, new Advise.Ask(List.of(), oom, "run.log", List.of(m), new Capacity(5_000_000L * 1024, 0, "--capacity", false),
                Catalog.standard(), TilingModel.NONE, n -> null));
        AdviceList.Row top = l.rows().get(0);
        // under a process limit on XLA:CPU with no reservation, the process's own memory is in the capacity and no
        // dump: the figure is the least the run is over, and a change must save the least the process holds too
        assertTrue(l.notes().get(0).startsWith("jit_loss is over by at least 6.2GiB (")
                && l.notes().get(0).contains("with the process's own memory") && l.notes().get(0).endsWith("'set reserved SIZE' counts the process as it is"),
                l.notes().get(0));
        long over = Long.parseLong(l.notes().get(0).replaceAll("^[^(]*\\((\\d+) B\\).*", "$1"));
        assertEquals(over + Failure.PROCESS_BYTES, l.need(), l.notes().get(0));
        // 8 microbatches measure 7.0 GiB, short of that; 16 measure 7.5 GiB, as far as a scan's count goes: still short
        // (the what-if sees only the stacked values shrink), so the note says what the row leaves for the process
        assertEquals("microbatch 16 ways", top.change(), l.rows().toString());
        assertTrue(top.jax().contains("xs.reshape(2048, 16, 128, ...).swapaxes(0, 1)"), top.jax());
        assertTrue(top.saves() >= over && top.saves() < l.need(), top.saves() + " B against " + over + " B over, " + l.need() + " B needed");
        assertTrue(l.notes().get(0).contains("rank 1 saves what the dumps show it over by and leaves "), l.notes().get(0));
        assertTrue(l.rows().stream().noneMatch(r -> r.change().equals("microbatch 8 ways")), "one count, the least that saves enough");
        long real = Liveness.of(m).peakBytes(0) - Liveness.of(fixed).peakBytes(0);
        assertEquals(9_295_413_244L, real, "the failing and the 8-way microbatched peaks");
        assertTrue(top.saves() <= real, top.saves() + " B claimed, " + real + " B saved by half as many microbatches");
    }

    /**
     * A contrastive step's batch meets itself in a [B, B] matrix: the row chunks the matrix's rows
     * (the loss unchanged) and never microbatches (which would change it); the same step with its
     * rows in 4 blocks saved at least 80% of what the row claims.
     */
    @Test
    void aBatchThatMeetsItselfIsChunkedByRowsNotMicrobatched() throws Exception {
        HloModule m = fixture("contrastive", "whole"), chunked = fixture("contrastive", "chunked");
        AdviceList l = advise(m, alone(m));
        assertTrue(l.rows().stream().noneMatch(r -> r.change().startsWith("microbatch")), l.rows().toString());
        AdviceList.Row top = l.rows().get(0);
        assertEquals("chunk 4 ways", top.change(), l.rows().toString());
        assertTrue(top.jax().startsWith("jax.lax.map(jax.checkpoint(f), rows.reshape(4, 512") && top.finding().contains("[2048, 2048]")
                && top.finding().contains("microbatches would change the loss"), top.jax() + " " + top.finding());
        for (bufq.model.HloValue v : top.evidence())
            assertTrue(v.shape().dim(0) == 2048 && v.shape().dim(1) == 2048, v.label() + " " + v.shape().text());
        long real = Liveness.of(m).peakBytes(0) - Liveness.of(chunked).peakBytes(0);
        assertEquals(34_938_616L, real, "the whole and the chunked peaks");
        // XLA:CPU runs a convolution in a while loop far slower: a conv net's microbatches are a Python loop
        HloModule cnn = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/cnn"))).get(0);
        AdviceList.Row micro = advise(cnn, alone(cnn)).rows().stream().filter(r -> r.change().startsWith("microbatch")).findFirst().orElseThrow();
        assertTrue(micro.jax().startsWith("for b in batch.reshape(") && micro.finding().contains("Python loop of jitted jax.grad calls"),
                micro.jax() + " " + micro.finding());
        // the count is sized by what the microbatched values save, measured: under 64 MiB the step is 82 MiB over,
        // 4 microbatches (the count the allocation's size gives) save 80 MiB, 8 save enough
        AdviceList tight = advise(cnn, new Advise.Ask(List.of(), null, null, List.of(cnn), new Capacity(64L << 20, 0, "--capacity", false),
                Catalog.standard(), TilingModel.NONE, n -> null));
        assertEquals("microbatch 8 ways", tight.rows().get(0).change(), tight.rows().toString());
        assertTrue(tight.rows().get(0).saves() >= tight.over(), tight.rows().get(0) + " against " + tight.over());
        // attention scores f32[8,8,128,128] of a batch of 8 with 8 heads are not a batch-by-batch matrix
        HloModule t = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/transformer-2layer"))).get(0);
        assertTrue(advise(t, alone(t)).rows().stream().anyMatch(r -> r.change().equals("microbatch 4 ways")), t.handle());
        assertTrue(real >= 0.8 * top.saves(), top.saves() + " B claimed, " + real + " B saved");
    }

    /**
     * A DP-SGD step's per-example gradients are made under vmap(transpose(jvp())): the backward pass,
     * so the batch they are cut along is microbatched. A dense layer as wide as the batch makes
     * [512, 512] activations that are not a batch-by-batch matrix, and the noise generator's small
     * loop does not take the allocation for a scan's stacked values. A quarter of the batch saved at
     * least 80% of what the row claims.
     */
    @Test
    void perExampleGradientsAreMicrobatched() throws Exception {
        HloModule m = fixture("dpsgd", "whole"), quarter = fixture("dpsgd", "quarter");
        AdviceList l = advise(m, alone(m));
        AdviceList.Row top = l.rows().get(0);
        assertEquals("microbatch 4 ways", top.change(), l.rows().toString());
        assertTrue(top.finding().contains("f32[512,1568,512]") && top.finding().contains("vmap(transpose(jvp()))"), top.finding());
        assertTrue(l.rows().stream().noneMatch(r -> r.finding().contains("[512, 512] matrices")), l.rows().toString());
        long real = Liveness.of(m).peakBytes(0) - Liveness.of(quarter).peakBytes(0);
        assertEquals(2_530_310_144L, real, "the whole and the quarter-batch peaks");
        assertTrue(real >= 0.8 * top.saves() && real <= 1.2 * top.saves(), top.saves() + " B claimed, " + real + " B saved");
    }

    /**
     * A decode step's KV cache, donated and written in place, is most of its bytes: no rewrite shrinks
     * it, and the list says so with a row that gives a call fewer sequences, its figure the cache
     * scaled. A training step's examples are the microbatch row's: no such row there.
     */
    @Test
    void aProgramFilledByItsInputsGetsASmallerBatch() throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require("tpu/inference-kv").resolve("dump"))).get(0);
        AdviceList l = advise(m, alone(m));
        AdviceList.Row row = l.rows().stream().filter(r -> r.change().equals(Remedy.SMALLER)).findFirst().orElseThrow();
        assertTrue(row.jax().startsWith("f(x[:len(x) // 2])") && row.finding().contains("cache['layers']")
                && row.finding().contains("64 -> 32 per device") && row.finding().contains("changes what one call computes"),
                row.jax() + " " + row.finding());
        assertEquals(16, row.evidence().size(), "the 8 layers' k and v caches");
        for (bufq.model.HloValue v : row.evidence()) assertEquals(64, v.shape().dim(0), v.label());
        assertTrue(row.effect().changesResults());
        Path rnn = Path.of(System.getProperty("bufq.root", ".")).resolve("query-engine/src/test/resources/fixtures/rnn-oom");
        HloModule step = DumpLoader.load(List.of(rnn.resolve("failing"))).get(0);
        assertTrue(advise(step, alone(step)).rows().stream().noneMatch(r -> r.change().equals(Remedy.SMALLER)), "a training step");
    }

    /**
     * A graph network's edges are gathered from its nodes and summed back into them in the forward
     * pass: the edge axis is not a batch, so the row chunks the sum under jax.checkpoint (the loss
     * unchanged) and never microbatches (which would change it); the same step with its edges in 4
     * chunks saved at least 80% of what the row claims.
     */
    @Test
    void anAxisSummedIntoAnotherIsChunkedNotMicrobatched() throws Exception {
        HloModule m = fixture("gnn", "whole"), chunked = fixture("gnn", "chunked");
        assertEquals("wrapped_scatter", Cuts.segmentSum(m, 60_000).name().replaceAll("\\.\\d+$", ""));
        assertNull(Cuts.segmentSum(m, 20_000), "the nodes' axis is summed into nothing else");
        AdviceList l = advise(m, alone(m));
        assertTrue(l.rows().stream().noneMatch(r -> r.change().startsWith("microbatch")), l.rows().toString());
        AdviceList.Row top = l.rows().get(0);
        assertEquals("chunk 4 ways", top.change(), l.rows().toString());
        assertTrue(top.jax().contains("jax.ops.segment_sum") && top.jax().contains("edges.reshape(4, 15000, ...)")
                && top.finding().contains("summed into f32[20000,128]") && top.finding().contains("microbatches of it would change the loss"),
                top.jax() + " " + top.finding());
        for (bufq.model.HloValue v : top.evidence()) assertEquals(60_000, v.shape().dim(0), v.label() + " " + v.shape().text());
        long real = Liveness.of(m).peakBytes(0) - Liveness.of(chunked).peakBytes(0);
        assertEquals(285_418_440L, real, "the whole and the chunked peaks");
        assertTrue(real >= 0.8 * top.saves() && real <= 1.2 * top.saves(), top.saves() + " B claimed, " + real + " B saved");
    }

    /**
     * A change found for the peak and again planned against its twin peak is one row; the same change
     * on other values (two leaves to shard, each its own row) stays two.
     */
    @Test
    void aRepeatedChangeIsOneRow() throws Exception {
        HloModule m = DumpLoader.load(List.of(Path.of(System.getProperty("bufq.root", "."))
                .resolve("query-engine/src/test/resources/fixtures/kernel-smoother"))).get(0);
        List<bufq.model.HloValue> v = new java.util.ArrayList<>(m.values());
        String jax = "jax.lax.scan(jax.checkpoint(layer), x, stacked_params)";
        var peak = new AdviceList.Row("scan-remat", 100, Recompilation.ESTIMATE, 118L, true, Advice.Effect.KEEPS, jax, "for the peak", "whatif a",
                List.of(v.get(0), v.get(1)));
        var twin = new AdviceList.Row("scan-remat", 100, Recompilation.ESTIMATE, 120L, true, Advice.Effect.KEEPS, jax, "planned against the twin",
                "whatif b", List.of(v.get(0), v.get(1), v.get(2)));
        var other = new AdviceList.Row("scan-remat", 100, Recompilation.ESTIMATE, 120L, true, Advice.Effect.KEEPS, jax, "other values", "whatif c",
                List.of(v.get(3)));
        List<AdviceList.Row> rows = new java.util.ArrayList<>(List.of(peak, twin, other));
        AdviceList.dropRepeats(rows);
        assertEquals(List.of(peak, other), rows);
    }

    /**
     * A program over by a known amount: of the rows that each save that much, the exact figure comes
     * first (a real llama step: the offload bound delivered 91% and stayed over, gradient
     * accumulation's exact figure 99% and fit); the rows that do not save enough follow by saves.
     */
    @Test
    void anExactFigureThatSavesEnoughComesFirst() throws Exception {
        String b = Recompilation.BOUND, e = Recompilation.ESTIMATE, x = Recompilation.EXACT;
        var offload = new AdviceList.Row("offload", 343, b, 343L, true, Advice.Effect.KEEPS, "jax.checkpoint(layer, policy=...)", "f", "whatif a", List.of());
        var policy = new AdviceList.Row("remat-policy", 340, e, 340L, true, Advice.Effect.KEEPS, "jax.checkpoint(layer, policy=...)", "f", "whatif b", List.of());
        var micro = new AdviceList.Row("microbatch 4 ways", 326, x, 326L, false, Advice.Effect.CUTS, "jax.lax.scan(...)", "f", "whatif c", List.of());
        var small = new AdviceList.Row("padding", 10, x, 10L, false, Advice.Effect.KEEPS, "x.reshape(...)", "f", "whatif d", List.of());
        List<AdviceList.Row> rows = new java.util.ArrayList<>(List.of(offload, policy, micro, small));
        AdviceList.enoughFirst(rows, 312);
        assertEquals(List.of(micro, offload, policy, small), rows);
        // a real llama step not donated: parameters and Adam state in bf16 (6.4 GiB, a change of the training's
        // precision) and donation (2.7 GiB, no result changed) both fit it; donation comes first
        var f32 = new AdviceList.Row("f32", 690, x, 690L, false, Advice.Effect.LOWERS_PRECISION, "x.astype(jnp.bfloat16)", "f", "whatif e", List.of());
        var donation = new AdviceList.Row("donation", 292, x, 292L, false, Advice.Effect.KEEPS, "jax.jit(f, donate_argnums=(0, 1))", "f", "whatif f", List.of());
        rows = new java.util.ArrayList<>(List.of(f32, donation, small));
        AdviceList.enoughFirst(rows, 250);
        assertEquals(List.of(donation, f32, small), rows);
        rows = new java.util.ArrayList<>(List.of(offload, policy, micro, small));
        AdviceList.enoughFirst(rows, 0);   // not known to be over: by saves
        assertEquals(List.of(offload, policy, micro, small), rows);
    }

    /** The committed copies of the corpus: without a message, the list is for the peak. */
    @TestFactory
    Stream<DynamicTest> theCommittedCopies() {
        return Stream.of("jax-0.10.2/transformer-2layer", "jax-0.10.2/rnn-scan", "jax-0.10.2/bf16-mlp", "tpu/oom/pallas-vmem")
                .map(c -> DynamicTest.dynamicTest(c, () -> {
                    Path p = Corpus.require(c);
                    for (HloModule m : DumpLoader.load(List.of(c.startsWith("tpu") ? p.resolve("dump") : p))) {
                        if (Liveness.of(m).peakTime() < 0) continue;
                        AdviceList l = advise(m, alone(m));
                        assertFalse(l.failing());
                    }
                }));
    }
}
