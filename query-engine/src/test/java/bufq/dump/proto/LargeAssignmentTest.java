package bufq.dump.proto;

import bufq.model.HloModule;
import bufq.model.HloValue;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A buffer assignment of {@link HloProtoParser#FORK_AT} bytes or more is read on another core while
 * the module is read (found past the module's bytes first); a smaller one in order. Both give the
 * same values.
 */
class LargeAssignmentTest {
    /** {@code n} parameters, each its own logical buffer of {@code 8 * (k + 1)} bytes. */
    private static byte[] parameters(int n) {
        ProtoGen g = new ProtoGen();
        for (int k = 0; k < n; k++) g.buffer(g.parameter("p" + k, ProtoGen.array(k + 1), k), 8L * (k + 1));
        return g.bytes();
    }

    private static void check(HloModule m, int n) {
        assertEquals(n, m.values().size());
        long sum = 0;
        for (HloValue v : m.values()) sum += v.size();
        assertEquals(8L * n * (n + 1) / 2, sum);
    }

    /** The length of the HloProto's buffer_assignment field. */
    private static int assignmentBytes(byte[] bytes) throws ProtoException {
        Wire w = new Wire(bytes, 0, bytes.length, 0, "HloProto");
        for (int f; (f = w.next()) != 0; ) {
            if (f != FieldNumbers.HloProto.BUFFER_ASSIGNMENT) {
                w.skip();
                continue;
            }
            w.enter("buffer_assignment", -1);
            return w.bytesLeft();
        }
        return 0;
    }

    @Test
    void aLargeAssignmentReadOnAnotherCoreGivesEveryValue() throws ProtoException {
        int n = 60_000;
        byte[] bytes = parameters(n);
        int assignment = assignmentBytes(bytes);
        assertTrue(assignment >= HloProtoParser.FORK_AT, assignment + " bytes of assignment: not past FORK_AT");
        check(DataflowScaleTest.load(bytes), n);
    }

    @Test
    void aSmallAssignmentReadInOrderGivesEveryValue() throws ProtoException {
        int n = 500;
        check(DataflowScaleTest.load(parameters(n)), n);
    }
}
