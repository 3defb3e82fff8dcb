package bufq.fuzz;

import bufq.analysis.liveness.Liveness;
import bufq.dump.proto.HostileProtos;
import bufq.dump.proto.ProtoException;
import bufq.dump.proto.ProtoGen;
import bufq.dump.proto.ProtoReader;
import bufq.model.HloModule;
import bufq.model.HloValue;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Generated protos of the shapes found hostile (nested and deep tuples, wide operand
 * lists, chains in reverse order, huge sizes and dimension lists, nested unknown groups), each
 * loaded under a time bound: it loads, and its values, uses and peak can be asked for, or it is
 * refused with a byte offset. Fixed seed, fixed count ({@link Fuzz}).
 */
class ProtoFuzzTest {
    /** Per input: far above what the largest case here needs on a busy machine, far below a quadratic load. */
    private static final long BOUND_MILLIS = 60_000;

    @Test
    void generatedProtosLoadOrAreRefusedWithTheirPlace() {
        long seed = Fuzz.seed();
        Random r = new Random(seed);
        int cases = Fuzz.cases(30);
        long started = System.currentTimeMillis();
        for (int c = 0; c < cases; c++) {
            Fuzz.safetyNet(started, c, cases, seed);
            int kind = r.nextInt(7);
            byte[] bytes = generate(kind, r);
            String what = "case " + c + " (kind " + kind + ", " + bytes.length + " bytes), " + Fuzz.replay(seed);
            Fuzz.Outcome<String> o = Fuzz.bounded(what, BOUND_MILLIS, () -> {
                HloModule m = ProtoReader.load(bytes, 0, bytes.length, 0, "gen.hlo.pb", "gen", -1, "cpu", false);
                long uses = 0;
                for (HloValue v : m.values()) uses += v.uses().size();
                return m.values().size() + " values, " + uses + " uses, peak " + Liveness.of(m).peakBytes();
            });
            if (o.thrown() == null) continue;
            if (!(o.thrown() instanceof ProtoException e)) {
                Fuzz.keep("proto-" + seed + "-" + c + ".hlo.pb", bytes);
                throw new AssertionError(what + ": " + o.thrown(), o.thrown());
            }
            assertTrue(e.getMessage().startsWith("byte ") && !e.reason().isEmpty(), what + ": " + e.getMessage());
        }
    }

    private static byte[] generate(int kind, Random r) {
        return switch (kind) {
            case 0 -> HostileProtos.nestedTuples(1 + r.nextInt(300), 1 + r.nextInt(60));
            case 1 -> HostileProtos.wideOperands(1 + r.nextInt(30_000));
            case 2 -> HostileProtos.bitcastChain(1 + r.nextInt(60_000), r.nextBoolean());
            case 3 -> deepTuple(1 + r.nextInt(80));
            case 4 -> hugeSizes(r);
            case 5 -> manyDims(1 + r.nextInt(3000));
            default -> groups(1 + r.nextInt(20_000));
        };
    }

    /** A parameter whose shape nests {@code depth} one-element tuples (past 63 the reader refuses it). */
    private static byte[] deepTuple(int depth) {
        byte[] s = ProtoGen.array(2);
        for (int k = 0; k < depth; k++) s = ProtoGen.tuple(s);
        ProtoGen g = new ProtoGen();
        long p = g.parameter("p", s, 0);
        g.buffer(p, 8);
        return g.bytes();
    }

    private static byte[] hugeSizes(Random r) {
        long[] near = {Long.MAX_VALUE, Long.MIN_VALUE, 1L << 62, (1L << 62) + 1, 1L << 56, (1L << 56) + 1, -1, 0};
        ProtoGen g = new ProtoGen();
        int n = 1 + r.nextInt(70);
        for (int k = 0; k < n; k++) {
            long p = g.parameter("p" + k, ProtoGen.array(1 + r.nextInt(4)), k);
            g.buffer(p, r.nextInt(3) == 0 ? near[r.nextInt(near.length)] : 1L << (40 + r.nextInt(17)));
        }
        return g.bytes();
    }

    private static byte[] manyDims(int n) {
        long[] dims = new long[n];
        java.util.Arrays.fill(dims, 2);
        ProtoGen g = new ProtoGen();
        g.buffer(g.parameter("p", ProtoGen.array(dims), 0), 16);
        return g.bytes();
    }

    private static byte[] groups(int depth) {
        ProtoGen g = new ProtoGen();
        g.buffer(g.parameter("p", ProtoGen.array(4), 0), 16);
        return g.moduleExtra(ProtoGen.nestedGroups(77, depth)).bytes();
    }
}
