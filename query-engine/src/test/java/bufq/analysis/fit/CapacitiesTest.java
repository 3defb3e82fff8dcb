package bufq.analysis.fit;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.analysis.oom.OomReader;
import bufq.analysis.oom.OomText;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The capacity policy on real XLA:TPU compile-time failures: what the messages say failed, which
 * capacity is adopted from them, and what fit states beside the device memory.
 */
class CapacitiesTest {
    private static final long STATED = 16_906_190_848L;   // the least byte count that prints as 15.75G

    /** An HBM refusal is a refused compile held to the dump's colour-0 total; a stated capacity wins over a device's. */
    @Test
    void anHbmRefusalIsAFailureAndItsCapacityIsTaken() throws Exception {
        Path dir = Corpus.require("tpu/oom/activations");
        OomText t = OomReader.read(Files.readAllBytes(dir.resolve("run.log")));
        List<HloModule> modules = DumpLoader.load(List.of(dir.resolve("dump")));
        List<Failure> failures = Capacities.failures(t, "run.log", modules);
        assertEquals(1, failures.size(), failures.toString());
        Failure f = failures.get(0);
        assertTrue(f.compileTime());
        assertEquals("jit_train_step", f.program());
        assertEquals(STATED, f.capacityBytes());
        // the memory-usage report's Total bytes of colour 0 (24,397,376,000 B) less its thread-local allocations (290,816 B):
        // what the check counts, printed as 22.72G
        assertEquals(24_397_085_184L, f.refusal().dumpBytes());
        long over = f.refusal().dumpBytes() - STATED;
        assertTrue(over >= f.refusal().overLo() && over <= f.refusal().overHi(), f.refusal().toString());
        assertEquals("it says the program needs 22.72G of HBM against 15.75G available, over by 6.97G", f.refusal().says());
        assertTrue(Capacities.otherSpaces(t, "run.log", modules).isEmpty());

        Capacities.Said v5e = new Capacities.Said(CapacityChoice.NONE, Devices.byName("v5e"), -1, "none");
        Capacities.Stated s = Capacities.stated(t, "run.log", v5e);
        assertNotNull(s);
        assertEquals(STATED, s.bytes());
        assertTrue(s.note().contains("in place of device v5e's"), s.note());
        assertTrue(Capacities.resolve(new Capacities.Said(s.choice(), v5e.device(), -1, "none")).source()
                .startsWith("message 1 of run.log states 15.75G"));
        // a capacity the user set stays; one an earlier message stated gives way
        assertNull(Capacities.stated(t, "run.log", new Capacities.Said(CapacityChoice.ofBytes(1L << 34), null, -1, "none")));
        assertNotNull(Capacities.stated(t, "run.log", new Capacities.Said(CapacityChoice.stated(1L << 34, "m"), null, -1, "none")));

        FitReport r = FitReport.of(List.of(Program.of(modules.get(0))), Capacities.resolve(new Capacities.Said(s.choice(), null, -1,
                "none")), Keep.ALL, "", failures);
        assertNotNull(r.failure());
        assertTrue(r.evidence().get(0).startsWith("message 1 of run.log agrees: the compile refused jit_train_step"), r.evidence().toString());
        // a refusal requested nothing: it bounds no unknown capacity
        assertThrows(IllegalArgumentException.class, () -> FitReport.of(List.of(Program.of(modules.get(0))), null, Keep.ALL, "", failures));
    }

    /** A VMEM failure is no device-memory failure: no capacity taken, one line to state beside the HBM check. */
    @Test
    void aVmemFailureIsStatedBesideTheDeviceMemory() throws Exception {
        Path dir = Corpus.require("tpu/oom/pallas-vmem");
        OomText t = OomReader.read(Files.readAllBytes(dir.resolve("run.log")));
        List<HloModule> modules = DumpLoader.load(List.of(dir.resolve("dump")));
        assertTrue(Capacities.failures(t, "run.log", modules).isEmpty());
        assertNull(Capacities.stated(t, "run.log", Capacities.Said.NONE));
        List<String> lines = Capacities.otherSpaces(t, "run.log", modules);
        assertEquals(List.of("jit_ffn_forward does not fit vmem: message 1 of run.log says it needs 289.82M of 128.00M vmem,"
                + " over by 161.82M (its largest allocations are listed by 'oom'; a kernel's scoped vmem is not in the dump)"), lines);
    }

    @Test
    void theExcessAsTheMessageWouldPrintIt() {
        assertEquals("6.97G", Capacities.difference("22.72G", "15.75G"));
        assertNull(Capacities.difference("22.72G", "900.00M"));
    }
}
