package bufq.shell.script;

import bufq.analysis.liveness.Liveness;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.model.HloModule;
import bufq.testing.Corpus;
import bufq.analysis.whatif.Edit;
import bufq.analysis.whatif.EditParser;
import bufq.analysis.whatif.Outcome;
import bufq.analysis.whatif.RecomputeAccess;
import bufq.analysis.whatif.EditSweep;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code whatif tiling NAME} with tiling models written in JavaScript, against the tests' plain recomputation. */
class WhatifTilingTest {
    private static void agrees(Harness h, String text) throws Exception {
        HloModule m = h.shell.current();
        var catalog = h.shell.engine().catalog();
        List<Edit> edits = EditParser.parse(text, Set.copyOf(catalog.entities())).edits();
        Outcome o = EditSweep.run(m, edits, catalog, h.shell.settings().tiling(), h.shell.settings()::tilingNamed);
        assertArrayEquals(RecomputeAccess.occupancy(m, edits, h.shell.settings()::tilingNamed),
                o.after().occupiedBytesByStep(OptionalInt.empty()), text);
    }

    @Test
    void aScriptTilingModelAgreesWithThePlainRecomputation() throws Exception {
        try (Harness h = new Harness().load(Corpus.require("jax-0.10.2/transformer-2layer"))) {
            h.ok("js bufq.tiling('page64k', s => Math.ceil(s.logical_bytes / 65536) * 65536)");
            String out = h.ok("whatif tiling page64k");
            assertTrue(out.contains("tiling page64k"), out);
            agrees(h, "tiling page64k");
            agrees(h, "remat where live at peak; scale where live at peak by 0.5; tiling page64k");
        }
    }

    @Test
    void theShippedTpuScriptSizesValuesByWhereTheyAreHeld() throws Exception {
        // Thread-local layout-less scalars take 4 KiB on TPU: the script's model gives the dump's own occupancy back.
        for (String rel : List.of("public/patrick-toulme_justabyte__tcp-hlo_module_0051.jit_mini_attention-buffer-assignment.txt",
                "public/patrick-toulme_justabyte__tpp-ref_hlo_module_0031.jit_reference_attention-buffer-assignment.txt")) {
            try (Harness h = new Harness().load(Corpus.require(rel))) {
                h.ok("run " + Harness.root().resolve("scripts/tiling/tpu.js"));
                HloModule m = h.shell.current();
                List<Edit> edits = EditParser.parse("tiling tpu-js", Set.copyOf(h.shell.engine().catalog().entities())).edits();
                assertArrayEquals(Liveness.of(m).occupiedBytesByStep(OptionalInt.empty()),
                        RecomputeAccess.occupancy(m, edits, h.shell.settings()::tilingNamed), rel);
                agrees(h, "tiling tpu-js");
                agrees(h, "scale where live at peak by 0.5; tiling tpu-js");
            }
        }
    }
}
