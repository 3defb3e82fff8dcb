package bufq.export;

import bufq.analysis.blame.Blame;
import bufq.analysis.blame.BlameBy;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.table.Table;
import bufq.testing.Corpus;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Corpus modules the export tests use, and bufq's own figures to hold the exports to. */
final class ExportCorpus {
    private ExportCorpus() {}

    static Path corpus() {
        return Corpus.require(Corpus.dir());
    }

    /** The 4-layer transformer without (false) or with (true) jax.checkpoint: the diff pair. */
    static HloModule pair(boolean remat) throws Exception {
        return load(Corpus.require("jax-0.10.2/pairs/transformer-4layer" + (remat ? "-remat" : "")));
    }

    /** A GPU module with source lines whose values share bytes at the peak (a loop's aliased buffers). */
    static HloModule gpuWithSources() throws Exception {
        return load(Corpus.requireFile("public", "C_heuristic_4gb-profile__module_0121.jit__kernel.sm_8.0_gpu-buffer-assignment.txt"));
    }

    /** A proto dump: its instructions carry whole Python stacks. */
    static HloModule withStacks() throws Exception {
        return load(Corpus.require("jax-0.10.2-proto/transformer-2layer/module_0000.jit_step.cpu_after_optimizations.hlo.pb"));
    }

    static HloModule load(Path p) throws Exception {
        return DumpLoader.load(List.of(p)).get(0);
    }

    /** {@code blame by BY}'s rows at the peak: name to bytes (op_name rows of every level). */
    static Map<String, Long> blame(HloModule m, BlameBy by) {
        Table t = (Table) Blame.atPeak(m, by, 0).get(0);
        int name = t.columnIndex(by == BlameBy.SOURCE ? "source" : by == BlameBy.OP_NAME ? "op_name" : "opcode");
        int bytes = t.columnIndex("bytes");
        Map<String, Long> out = new TreeMap<>();
        for (int r = 0; r < t.size(); r++) out.put((String) t.cell(r, name), (Long) t.cell(r, bytes));
        return out;
    }
}
