package bufq.dump.proto;

import bufq.model.HloModule;
import bufq.model.HloValue;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The proto reader's dataflow is linear in the module's size and exact: each input here
 * took 10 to 40 s of processor time before, or gave a wrong answer, and takes about a second now.
 * The bounds are generous (not a benchmark) and count the loading thread's processor time, not the
 * wall clock, so a busy machine does not fail them: they fail only a return to super-linear work.
 */
class DataflowScaleTest {
    /** A hang guard: the wall clock may run far slower than the processor on a shared machine. */
    private static final Duration HANG = Duration.ofSeconds(180);
    /** Processor time one load (and its positions and uses) may take: several times what it needs. */
    static final long CPU_NANOS = 8_000_000_000L;

    static HloModule load(byte[] bytes) throws ProtoException {
        return ProtoReader.load(bytes, 0, bytes.length, 0, "gen.hlo.pb", "gen", -1, "cpu", false);
    }

    /** Loads {@code bytes} and reads every value's uses, failing past {@link #CPU_NANOS} of this thread's time. */
    static HloModule bounded(byte[] bytes) {
        return assertTimeoutPreemptively(HANG, () -> {
            ThreadMXBean t = ManagementFactory.getThreadMXBean();
            long start = t.getCurrentThreadCpuTime();
            HloModule m = load(bytes);
            if (!m.values().isEmpty()) m.values().get(0).uses();
            long spent = t.getCurrentThreadCpuTime() - start;
            assertTrue(spent < CPU_NANOS, "load took " + spent / 1_000_000 + " ms of processor time");
            return m;
        });
    }

    private static HloValue value(HloModule m, String name) {
        return m.valuesNamed(name).get(0);
    }

    @Test
    void aChainWrittenInReverseGivesEveryUseAsInOrder() {
        int n = 100_000;
        for (boolean reverse : new boolean[] {false, true}) {
            HloModule m = bounded(HostileProtos.bitcastChain(n, reverse));
            HloValue p = value(m, "p");
            assertEquals(n - 1, p.uses().size(), "uses of p, reverse " + reverse);
            assertEquals(n, p.positions().size(), "positions of p, reverse " + reverse);
            assertEquals(0, p.rangeStart());
            assertEquals(n, p.rangeEnd());   // at the root: to the computation's end
        }
    }

    @Test
    void aLongReverseChainLoadsInLinearTime() {
        HloModule m = bounded(HostileProtos.bitcastChain(300_000, true));
        assertEquals(299_999, value(m, "p").uses().size());
    }

    @Test
    void oneInstructionWithAHundredThousandOperands() {
        HloModule m = bounded(HostileProtos.wideOperands(100_000));
        HloValue p = value(m, "p7");
        assertEquals(1, p.uses().size());
        assertEquals("wide", p.uses().get(0).user());
        assertEquals(7, p.uses().get(0).operand());
    }

    @Test
    void aThousandTuplesOfAHundredElements() {
        HloModule m = bounded(HostileProtos.nestedTuples(1000, 100));
        HloValue p = value(m, "p42");
        // p42 is element 42 of each tuple, element {t,42} of the root and 42 of each gte: 1 + 3 * 1000 positions.
        assertEquals(3001, p.positions().size());
        // A tuple passes its operands through: the only uses are the root's (the entry's output).
        assertEquals(1000, p.uses().size());
        assertEquals(100, m.values().size());
    }

    @Test
    void anInterruptedLoadStopsWithCancelled() {
        // Big enough that the dataflow looks at the interrupt many times over; making it costs more
        // than the load, which stops at the first look.
        byte[] bytes = HostileProtos.bitcastChain(100_000, true);
        // Ctrl-C in the REPL interrupts the loading thread; the dataflow looks at it every few
        // thousand steps, so a load already interrupted stops at the first look.
        Thread.currentThread().interrupt();
        try {
            ProtoException e = assertThrows(ProtoException.class, () -> load(bytes));
            assertTrue(e.isCancelled(), e.getMessage());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void sixtyThousandAliasedParametersLoadInLinearTime() {
        // Each entry parameter's values were compared with every output alias: 60,000 of each made
        // 3.6 billion comparisons. All but the last parameter are aliased to an output.
        int n = 60_000;
        ProtoGen g = new ProtoGen();
        for (int k = 0; k < n; k++) g.buffer(g.parameter("p" + k, ProtoGen.array(4), k), 16);
        g.moduleExtra(ProtoGen.message(o -> o.writeByteArray(FieldNumbers.HloModuleProto.INPUT_OUTPUT_ALIAS, ProtoGen.message(a -> {
            for (int k = 0; k < n - 1; k++) {
                int number = k;
                a.writeByteArray(FieldNumbers.HloInputOutputAliasProto.ENTRIES, ProtoGen.message(e -> e.writeInt64(
                        FieldNumbers.HloInputOutputAliasProto_AliasEntryProto.PARAMETER_NUMBER, number)));
            }
        }))));
        HloModule m = bounded(g.bytes());
        int end = m.info().maxTime();
        assertTrue(value(m, "p0").rangeEnd() < end, "an aliased parameter does not live to the end");
        assertEquals(end, value(m, "p" + (n - 1)).rangeEnd(), "the one parameter no output aliases lives to the end");
    }

}
