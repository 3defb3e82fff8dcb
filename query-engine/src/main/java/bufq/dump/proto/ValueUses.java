package bufq.dump.proto;

import java.util.Arrays;
import java.util.List;

/**
 * The last phase of {@link Dataflow}: from the settled value sets, each value's positions and its
 * uses.
 */
final class ValueUses {
    private ValueUses() {}

    /**
     * Positions in module order (defining position first), then uses as {@code HloValue::ComputeUses}
     * lists them, users in module order. XLA's own order (what the text dump prints) is not in the
     * proto: it walks computations and instructions in the order they were added to the module, and
     * each instruction's users in the order they were added, with a removed user's place taken by the
     * last one ({@code HloInstruction::Users::RemoveUser}); {@code HloModule::ToProto} writes
     * computations and instructions in post order and writes no users. The same positions and uses
     * are found, in another order where compilation moved things.
     */
    static void find(Graph g, int[][][] sets, int[][][] indexOf, List<FlowValue> values, Runnable checkCancelled) {
        for (int i = 0; i < g.size(); i++) {
            if ((i & 0xfff) == 0) checkCancelled.run();
            for (int k = 0; k < sets[i].length; k++) {
                for (int v : sets[i][k]) {
                    FlowValue val = values.get(v);
                    int[] pos = {i, k};
                    if (val.instruction == i && Arrays.equals(val.index, indexOf[i][k])) val.positions.add(0, pos);
                    else val.positions.add(pos);
                }
            }
        }
        long[][] reads = operandReads(g);
        long[][] deepReads = deepReads(g, reads);
        int seen = 0;
        int[] roots = new int[4];
        for (FlowValue v : values) {
            if (!v.live) continue;
            // The roots among the value's positions: few (one per computation at most).
            int nRoots = 0;
            for (int[] p : v.positions) {
                if (!g.isRoot(p[0]) || contains(roots, nRoots, p[0])) continue;
                if (nRoots == roots.length) roots = Arrays.copyOf(roots, nRoots * 2);
                roots[nRoots++] = p[0];
            }
            for (int[] p : v.positions) {
                if ((++seen & 0xfff) == 0) checkCancelled.run();
                int at = p[0];
                int[] idx = indexOf[at][p[1]];
                // Below the top index only readers of whole operands (or roots) can use it: the
                // get-tuple-elements of a wide tuple need not be looked at for each of its elements.
                for (long r : idx.length == 0 ? reads[at] : deepReads[at]) {
                    int user = (int) (r >>> 32), o = (int) r;
                    if (mayUse(g, user, idx) || contains(roots, nRoots, user)) v.uses.add(new FlowValue.Use(user, o, idx));
                }
            }
        }
    }

    private static boolean contains(int[] a, int n, int x) {
        for (int k = 0; k < n; k++) if (a[k] == x) return true;
        return false;
    }

    /**
     * Per instruction: every place it is read, {@code user << 32 | operand number}, users in module
     * order and each user's operands in order (what looping over its users' operands gives, once).
     */
    private static long[][] operandReads(Graph g) {
        int n = g.size();
        int[] count = new int[n];
        for (int u = 0; u < n; u++) for (int o : g.operands[u]) if (o >= 0) count[o]++;
        long[][] out = new long[n][];
        for (int i = 0; i < n; i++) out[i] = count[i] == 0 ? NO_READS : new long[count[i]];
        int[] filled = new int[n];
        for (int u = 0; u < n; u++) {
            int[] ops = g.operands[u];
            for (int o = 0; o < ops.length; o++) if (ops[o] >= 0) out[ops[o]][filled[ops[o]]++] = (long) u << 32 | o;
        }
        return out;
    }

    private static final long[] NO_READS = new long[0];

    /** {@code reads} less those that cannot use an operand's inner index: a get-tuple-element's, a copy's, a tuple's, a domain's (unless a root). */
    private static long[][] deepReads(Graph g, long[][] reads) {
        long[][] out = new long[reads.length][];
        int[] deep = {0};
        for (int i = 0; i < reads.length; i++) {
            int n = 0;
            for (long r : reads[i]) if (mayUse(g, (int) (r >>> 32), deep) || g.isRoot((int) (r >>> 32))) n++;
            if (n == reads[i].length) {
                out[i] = reads[i];
                continue;
            }
            long[] kept = n == 0 ? NO_READS : new long[n];
            n = 0;
            for (long r : reads[i]) if (mayUse(g, (int) (r >>> 32), deep) || g.isRoot((int) (r >>> 32))) kept[n++] = r;
            out[i] = kept;
        }
        return out;
    }

    /** XLA's MayUseOperandValue: which operands an instruction reads rather than passes through. */
    private static boolean mayUse(Graph g, int user, int[] index) {
        return switch (g.op[user]) {
            case GET_TUPLE_ELEMENT, COPY -> index.length == 0;
            case DOMAIN, TUPLE -> false;
            default -> true;
        };
    }
}
