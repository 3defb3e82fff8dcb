package bufq.dump.proto;

import java.util.ArrayList;
import java.util.List;

/**
 * A value {@link Dataflow} finds: its defining instruction and index, whether it stayed a phi, and
 * (once {@link ValueUses} has run) every position holding it and its uses.
 */
final class FlowValue {
    final int instruction;
    final int[] index;
    final boolean phiDefined;
    boolean live;          // still present in some value set (phis may be optimised away)
    final List<int[]> positions = new ArrayList<>(1);   // {instruction, index slot}
    final List<Use> uses = new ArrayList<>(1);

    FlowValue(int instruction, int[] index, boolean phi) {
        this.instruction = instruction;
        this.index = index;
        this.phiDefined = phi;
    }

    /** A use: instruction {@code user} reads it as operand {@code operand} at {@code index} of that operand. */
    record Use(int user, int operand, int[] index) {}
}
