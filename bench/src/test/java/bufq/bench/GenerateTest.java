package bufq.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.testing.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generator's understanding of the format, checked on the two real dumps it replicates. */
class GenerateTest {
    static final Path TRANSFORMER = Corpus.dir().resolve("jax-0.10.2/transformer-12layer");
    static final Path GPU = Corpus.dir().resolve("public/jackmcarthur_lorrax_sandbox__Si-04_si_4x4x4_bse-C_lorrax_bse_bgweqp-"
            + "profile_b1_rtol1e4__module_0037.jit__full_run.sm_8.0_gpu-buffer-assignment.txt");

    @TempDir Path tmp;

    /** One copy must reproduce the real files byte for byte, peak section and stack tree included. */
    @Test void oneCopyReproducesTheFourFileSource() throws Exception {
        Corpus.require(TRANSFORMER);
        Path out = tmp.resolve("t1");
        assertEquals(0, Generate.run(new String[]{"--source", TRANSFORMER.toString(), "--values", "1", "--out",
                out.toString()}, System.out, System.err));
        try (Stream<Path> s = Files.list(out)) {
            List<Path> files = s.toList();
            assertEquals(4, files.size());
            for (Path f : files) assertArrayEquals(Files.readAllBytes(TRANSFORMER.resolve(f.getFileName())),
                    Files.readAllBytes(f), f.getFileName().toString());
        }
    }

    @Test void oneCopyReproducesTheSingleFileSource() throws Exception {
        Corpus.require(GPU);
        Path out = tmp.resolve("g1");
        assertEquals(0, Generate.run(new String[]{"--source", GPU.toString(), "--values", "1", "--format", "single",
                "--out", out.toString()}, System.out, System.err));
        try (Stream<Path> s = Files.list(out)) {
            assertArrayEquals(Files.readAllBytes(GPU), Files.readAllBytes(s.findFirst().orElseThrow()));
        }
    }

    /** Replicas get fresh ids and names, and the schedule grows by one source length per copy. */
    @Test void replicasAreFreshAndShifted() throws Exception {
        Corpus.require(GPU);
        Replicator r = new Replicator(SourceDump.read(GPU), 3);
        Set<String> keys = new HashSet<>();
        for (int k = 0; k < 3; k++) {
            for (SourceDump.Alloc a : r.src.allocations) {
                for (SourceDump.ValueRef v : a.values()) assertTrue(keys.add(r.rename(v.name(), k) + v.index()));
            }
        }
        assertEquals(3 * r.src.sequence.size(), r.newMax);
        assertEquals(r.src.sequence.size() + 5, r.start(5, 1));
        assertEquals(0, r.start(0, 2), "entry parameters stay live from step 0");
        assertEquals(r.newMax, r.end(r.src.maxTime, 0), "live-out values stay live to the end");
    }

    @Test void namesKeepXlaShape() {
        assertEquals("fusion.1003", ReplicaNames.rename("fusion.3", 1, 1000));
        assertEquals("fusion.1999", ReplicaNames.rename("fusion", 1, 1000));
        assertEquals("a.05.2999", ReplicaNames.rename("a.05", 2, 1000));
        assertEquals("x = f32[] add(%a.1001, %b.1999), to_apply=%r.1002",
                ReplicaNames.renameReferences("x = f32[] add(%a.1, %b), to_apply=%r.2", 1, 1000));
        assertEquals("426 147 848", DtypeSizes.grouped(426147848));
        assertEquals("411.13MiB", DtypeSizes.human(431096860));
        assertEquals(24, DtypeSizes.logicalBytes("(s64[], c128[2]{0}, (f32[], f32[]))"), "a tuple is its index table");
        assertEquals(2048, DtypeSizes.logicalBytes("c128[8,<=16]{1,0}"));
    }
}
