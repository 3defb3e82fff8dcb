package bufq.dump.proto;

import bufq.dump.proto.Messages.Computation;
import bufq.dump.proto.Messages.Instruction;
import bufq.dump.proto.Messages.HloModuleProto;
import bufq.dump.proto.Shapes.ShapeP;
import bufq.util.IdTable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The module's instructions as a graph, numbered densely: operands and users by number, each
 * instruction's computation, which computations are fusion bodies, and who calls whom. Built once
 * from the {@code HloModuleProto}; the dataflow and the live ranges read it.
 */
final class Graph {
    final HloModuleProto module;
    final Instruction[] ins;
    /** Instruction -> what its opcode is to the dataflow and the live ranges. */
    final Op[] op;
    final int[] computationOf;           // instruction -> computation position
    final int[][] operands;              // instruction -> operand instruction numbers (-1 when unknown)
    final int[][] users;                 // instruction -> users in instruction order, each once
    final int[] roots;                   // computation -> root instruction number, or -1
    final boolean[] fusionBody;          // computation is called by a fusion (not analysed; its instructions not read)
    final int entry;                     // entry computation position
    private final InstructionIds byId;
    private final IdTable computationById;
    private final int[][] parameters;    // computation -> instruction number by parameter number (-1 for none)
    /** Computation position -> the instructions that call it as while body/condition, call or conditional branch. */
    final List<List<Integer>> callers;
    final int[] firstOfComputation;      // computation -> its first instruction number

    Graph(HloModuleProto m) {
        this.module = m;
        // Arrays, not the lists: most computations are fusion bodies with no instructions read, and
        // on the client compiler each list call and iterator per computation cost more than the rest.
        Computation[] cs = m.computations().toArray(new Computation[0]);
        int nc = cs.length;
        Instruction[][] lists = new Instruction[nc][];
        int n = 0;
        for (int c = 0; c < nc; c++) {
            lists[c] = cs[c].instructions().toArray(NO_INSTRUCTIONS);
            n += lists[c].length;
        }
        ins = new Instruction[n];
        op = new Op[n];
        computationOf = new int[n];
        firstOfComputation = new int[nc];
        roots = new int[nc];
        byId = new InstructionIds(lists, n);
        computationById = new IdTable(nc);
        parameters = new int[nc][];
        int k = 0;
        for (int c = 0; c < nc; c++) {
            computationById.put(cs[c].id(), c);
            firstOfComputation[c] = k;
            int[] params = NONE;
            for (Instruction i : lists[c]) {
                ins[k] = i;
                op[k] = Op.of(i.opcode());
                computationOf[k] = c;
                byId.put(i.id(), c, k);
                long p = i.parameterNumber();
                if (op[k] == Op.PARAMETER && p >= 0 && p < MAX_PARAMETERS) {
                    if (p >= params.length) {
                        int old = params.length;
                        params = Arrays.copyOf(params, (int) Math.max(p + 1, old * 2L));
                        Arrays.fill(params, old, params.length, -1);
                    }
                    if (params[(int) p] < 0) params[(int) p] = k;
                }
                k++;
            }
            parameters[c] = params;
        }
        for (int c = 0; c < nc; c++) {
            int r = byId.get(cs[c].rootId());
            roots[c] = r < 0 ? (lists[c].length == 0 ? -1 : firstOfComputation[c] + lists[c].length - 1) : r;
        }
        int e = computationById.get(m.entryId());
        if (e < 0) for (int c = 0; c < nc; c++) if (cs[c].name().equals(m.entryName())) e = c;
        if (e < 0) e = nc - 1;   // callees come before callers: the entry is last (-1 without computations)
        entry = e;
        operands = new int[n][];
        // Users in instruction order, each once: counted first, then filled, without boxed lists.
        int[] userCount = new int[n];
        // lastUser[o]: the last instruction counted as o's user, so one reading it twice counts once
        // (a stamp, not a search of the operands before: an instruction may have 100,000 of them).
        int[] lastUser = new int[n];
        Arrays.fill(lastUser, -1);
        for (int i = 0; i < n; i++) {
            long[] ids = ins[i].operandIds();
            int[] ops = new int[ids.length];
            for (int j = 0; j < ids.length; j++) {
                int o = byId.get(ids[j]);
                ops[j] = o;
                if (o >= 0 && lastUser[o] != i) {
                    lastUser[o] = i;
                    userCount[o]++;
                }
            }
            operands[i] = ops;
        }
        users = new int[n][];
        for (int i = 0; i < n; i++) users[i] = userCount[i] == 0 ? NONE : new int[userCount[i]];
        int[] filled = new int[n];
        Arrays.fill(lastUser, -1);
        for (int i = 0; i < n; i++) {
            for (int o : operands[i]) {
                if (o >= 0 && lastUser[o] != i) {
                    lastUser[o] = i;
                    users[o][filled[o]++] = i;
                }
            }
        }
        fusionBody = new boolean[nc];
        for (int c = 0; c < nc; c++) fusionBody[c] = cs[c].fusionBody();
        // Only computations that a while, call or conditional runs get a list of their own.
        callers = new ArrayList<>(Collections.nCopies(nc, List.of()));
        for (int i = 0; i < n; i++) {
            long[] called = ins[i].calledIds();
            if (called.length == 0) continue;
            Op o = op[i];
            for (long cid : called) {
                int c = computationById.get(cid);
                if (c < 0) continue;
                if (o == Op.FUSION) fusionBody[c] = true;
                else if (o == Op.WHILE || o == Op.CALL || o == Op.CONDITIONAL) {
                    if (callers.get(c).isEmpty()) callers.set(c, new ArrayList<>(1));
                    callers.get(c).add(i);
                }
            }
        }
    }

    /**
     * Instruction ids to numbers. XLA's ids are the computation's id in the upper 32 bits and a
     * small number in the lower ones; while a module's ids follow that pattern they are found by
     * two array reads (computation id, then number within it), checked against the instruction's
     * own id, and only ids that do not fit go through a hash table.
     */
    private final class InstructionIds {
        private final int[] computationOfHigh;   // upper 32 bits -> computation position + 1, 0 for none
        private final int[][] byLow;             // computation position -> lower 32 bits -> number + 1
        private final IdTable others;

        InstructionIds(Instruction[][] cs, int n) {
            long maxHigh = -1;
            for (Instruction[] c : cs) for (Instruction i : c) maxHigh = Math.max(maxHigh, i.id() >>> 32);
            boolean dense = maxHigh >= 0 && maxHigh < 4L * cs.length + 64;
            computationOfHigh = dense ? new int[(int) maxHigh + 1] : new int[0];
            byLow = new int[cs.length][];
            others = new IdTable(dense ? 4 : n);
            if (!dense) return;
            for (int c = 0; c < cs.length; c++) {
                Instruction[] list = cs[c];
                if (list.length == 0) continue;
                long high = list[0].id() >>> 32;
                long maxLow = -1;
                boolean one = true;
                for (Instruction i : list) {
                    one &= i.id() >>> 32 == high;
                    maxLow = Math.max(maxLow, i.id() & 0xffffffffL);
                }
                if (!one || computationOfHigh[(int) high] != 0 || maxLow >= 4L * list.length + 64) continue;
                computationOfHigh[(int) high] = c + 1;
                byLow[c] = new int[(int) maxLow + 1];
            }
        }

        private int otherCount;

        /** Maps {@code id} (of computation {@code c}) to {@code k}; an id given twice keeps the last, as a map would. */
        void put(long id, int c, int k) {
            long high = id >>> 32;
            int[] low = byLow[c];
            if (low != null && high < computationOfHigh.length && computationOfHigh[(int) high] == c + 1) {
                low[(int) (id & 0xffffffffL)] = k + 1;
                if (otherCount > 0) others.take(id);
            } else {
                others.put(id, k);
                otherCount++;
            }
        }

        int get(long id) {
            if (otherCount > 0) {
                int k = others.get(id);
                if (k >= 0) return k;
            }
            long high = id >>> 32;
            if (high < computationOfHigh.length) {
                int c = computationOfHigh[(int) high] - 1;
                long low = id & 0xffffffffL;
                if (c >= 0 && low < byLow[c].length) {
                    int k = byLow[c][(int) low] - 1;
                    if (k >= 0 && ins[k].id() == id) return k;
                }
            }
            return -1;
        }
    }

    private static final int[] NONE = new int[0];
    private static final Instruction[] NO_INSTRUCTIONS = new Instruction[0];
    private static final long MAX_PARAMETERS = 1 << 20;

    /** The instruction number of proto id {@code id}, or -1. */
    int number(long id) {
        return byId.get(id);
    }

    int size() { return ins.length; }

    String name(int i) { return ins[i].name(); }

    boolean isRoot(int i) { return roots[computationOf[i]] == i; }

    /** The called computation positions of {@code i}, in order. */
    int[] called(int i) {
        long[] ids = ins[i].calledIds();
        int[] out = new int[ids.length];
        for (int j = 0; j < ids.length; j++) {
            out[j] = computationById.get(ids[j]);
        }
        return out;
    }

    /** A while's {condition, body} computation positions ({-1, -1} when not two). */
    int[] whileParts(int w) {
        // A while lists its body first, then its condition.
        int[] c = called(w);
        return c.length == 2 ? new int[] {c[1], c[0]} : new int[] {-1, -1};
    }

    /** The parameter instruction number {@code p} of computation {@code c}, or -1. */
    int parameter(int c, long p) {
        int[] params = parameters[c];
        return p >= 0 && p < params.length ? params[(int) p] : -1;
    }

    /** Every shape index of {@code s}, preorder ({@code {}} first), as int arrays. */
    static List<int[]> indices(ShapeP s) {
        List<int[]> out = new ArrayList<>();
        walk(s, new int[0], out);
        return out;
    }

    private static void walk(ShapeP s, int[] prefix, List<int[]> out) {
        out.add(prefix);
        if (s == null) return;
        for (int k = 0; k < s.tuple().size(); k++) {
            int[] p = Arrays.copyOf(prefix, prefix.length + 1);
            p[prefix.length] = k;
            walk(s.tuple().get(k), p, out);
        }
    }

    /** The subshape at {@code index}, or null when the index leaves the shape. */
    static ShapeP subshape(ShapeP s, long[] index) {
        for (long k : index) {
            if (s == null || k < 0 || k >= s.tuple().size()) return null;
            s = s.tuple().get((int) k);
        }
        return s;
    }

    static boolean isTupleShape(ShapeP s) {
        return s != null && s.elementType() == Shapes.TUPLE;
    }
}
