package bufq.analysis.oom;

import bufq.dump.DumpLoader;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SPMD partitioner's "Involuntary full rematerialization" error (spmd_partitioner.cc, LOG(ERROR)
 * with the sharding it could not reach and the operation's HLO) read from a log and joined to the
 * values that operation made in a loaded sharded module, with their bytes at the peak.
 */
class PartitionerWarningTest {
    /** As XLA prints it: the glog prefix, both shardings with their metadata, the operation whole. */
    static final String LINE = "E0000 00:00:1730000000.123456   4242 spmd_partitioner.cc:613] [spmd] Involuntary full "
            + "rematerialization. The compiler was not able to go from sharding {devices=[1,4,1]<=[4]} to {devices=[4,1,1]<=[4]} "
            + "without doing a full rematerialization of the tensor for HLO operation: %dot.21 = bf16[32,1024,16384]{2,1,0} "
            + "dot(bf16[32,1024,4096]{2,1,0} %convert.5, bf16[4096,16384]{1,0} %param.4), lhs_contracting_dims={2}, rhs_contracting_dims={0}, "
            + "sharding={devices=[4,1,1]<=[4]}, metadata={op_name=\"jit(train_step)/transpose(jvp())/dot_general\" source_file=\"tp.py\" "
            + "source_line=88}. You probably want to enrich the sharding annotations to prevent this from happening.";

    @Test
    void theWarningReadsBackItsShardingsOperationAndOpName() {
        PartitionerWarning w = PartitionerWarning.parse(LINE);
        assertEquals("{devices=[1,4,1]<=[4]}", w.from());
        assertEquals("{devices=[4,1,1]<=[4]}", w.to());
        assertEquals("dot.21", w.instruction());
        assertEquals("bf16[32,1024,16384]{2,1,0}", w.shape());
        assertEquals("jit(train_step)/transpose(jvp())/dot_general", w.opName());
        assertEquals(w, PartitionerWarning.parse(w.says()), "the one-line form reads back the same");
        assertNull(PartitionerWarning.parse("W0000 hlo_rematerialization.cc:3183] Can't reduce memory use below 1GiB"));
    }

    @Test
    void itJoinsTheValuesItsOperationMadeWithTheirBytesAtThePeak() throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require("tpu/tp-mlp/dump"))).get(0);
        OomText t = OomReader.read(LINE);
        LogEvent e = t.events().get(0);
        assertEquals("involuntary-remat", e.kind());
        long expected = 0;
        int n = 0;
        for (HloValue v : LiveValues.at(m, Liveness.of(m).peakTime())) {
            if ("jit(train_step)/transpose(jvp())/dot_general".equals(m.instruction(v.name()).opName())) {
                expected += v.size();
                n++;
            }
        }
        assertTrue(expected > 0, "the op_name holds bytes at the peak of tp-mlp");
        Table table = OomReport.warnings(t, List.of(m));
        String evidence = (String) table.cell(0, table.columnIndex("evidence"));
        assertTrue(evidence.contains("; " + n + " live at the peak (step " + Liveness.of(m).peakTime() + "), "), evidence);
        assertTrue(evidence.endsWith("(" + expected + " B)"), evidence);
        assertEquals(m.handle(), table.cell(0, table.columnIndex("module")));
    }
}
