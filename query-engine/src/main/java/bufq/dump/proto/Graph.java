package bufq.dump.proto;

import bufq.dump.proto.Messages.Computation;
import bufq.dump.proto.Messages.Instruction;
import bufq.dump.proto.Messages.HloModuleProto;
import bufq.dump.proto.Messages.ShapeP;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The module's instructions as a graph, numbered densely: operands and users by number, each
 * instruction's computation, which computations are fusion bodies, and who calls whom. Built once
 * from the {@code HloModuleProto}; the dataflow and the live ranges read it.
 */
final class Graph {
    final HloModuleProto module;
    final Instruction[] ins;
    final int[] computationOf;           // instruction -> computation position
    final int[][] operands;              // instruction -> operand instruction numbers (-1 when unknown)
    final int[][] users;                 // instruction -> users in instruction order, each once
    final int[] roots;                   // computation -> root instruction number, or -1
    final boolean[] fusionBody;          // computation is called by a fusion (not analysed)
    final int entry;                     // entry computation position
    final Map<Long, Integer> byId = new HashMap<>();
    final Map<Long, Integer> computationById = new HashMap<>();
    /** Computation position -> the instructions that call it as while body/condition, call or conditional branch. */
    final List<List<Integer>> callers;
    final int[] firstOfComputation;      // computation -> its first instruction number

    Graph(HloModuleProto m) {
        this.module = m;
        List<Computation> cs = m.computations();
        int n = 0;
        for (Computation c : cs) n += c.instructions().size();
        ins = new Instruction[n];
        computationOf = new int[n];
        firstOfComputation = new int[cs.size()];
        roots = new int[cs.size()];
        int k = 0;
        for (int c = 0; c < cs.size(); c++) {
            computationById.put(cs.get(c).id(), c);
            firstOfComputation[c] = k;
            for (Instruction i : cs.get(c).instructions()) {
                ins[k] = i;
                computationOf[k] = c;
                byId.put(i.id(), k);
                k++;
            }
        }
        for (int c = 0; c < cs.size(); c++) {
            Integer r = byId.get(cs.get(c).rootId());
            roots[c] = r == null ? (cs.get(c).instructions().isEmpty() ? -1 : firstOfComputation[c] + cs.get(c).instructions().size() - 1) : r;
        }
        Integer e = computationById.get(m.entryId());
        if (e == null) for (int c = 0; c < cs.size(); c++) if (cs.get(c).name().equals(m.entryName())) e = c;
        if (e == null && !cs.isEmpty()) e = cs.size() - 1;   // callees come before callers: the entry is last
        entry = e == null ? -1 : e;
        operands = new int[n][];
        List<List<Integer>> u = new ArrayList<>(n);
        for (int i = 0; i < n; i++) u.add(new ArrayList<>(2));
        for (int i = 0; i < n; i++) {
            long[] ids = ins[i].operandIds();
            operands[i] = new int[ids.length];
            for (int j = 0; j < ids.length; j++) {
                Integer o = byId.get(ids[j]);
                operands[i][j] = o == null ? -1 : o;
                if (o != null && (u.get(o).isEmpty() || u.get(o).get(u.get(o).size() - 1) != i)) u.get(o).add(i);
            }
        }
        users = new int[n][];
        for (int i = 0; i < n; i++) users[i] = u.get(i).stream().mapToInt(Integer::intValue).toArray();
        fusionBody = new boolean[cs.size()];
        callers = new ArrayList<>(cs.size());
        for (int c = 0; c < cs.size(); c++) callers.add(new ArrayList<>(1));
        for (int i = 0; i < n; i++) {
            String op = ins[i].opcode();
            for (long cid : ins[i].calledIds()) {
                Integer c = computationById.get(cid);
                if (c == null) continue;
                if (op.equals("fusion")) fusionBody[c] = true;
                else if (op.equals("while") || op.equals("call") || op.equals("conditional")) callers.get(c).add(i);
            }
        }
    }

    int size() { return ins.length; }

    String name(int i) { return ins[i].name(); }

    String opcode(int i) { return ins[i].opcode(); }

    boolean isRoot(int i) { return roots[computationOf[i]] == i; }

    /** The called computation positions of {@code i}, in order. */
    int[] called(int i) {
        long[] ids = ins[i].calledIds();
        int[] out = new int[ids.length];
        for (int j = 0; j < ids.length; j++) {
            Integer c = computationById.get(ids[j]);
            out[j] = c == null ? -1 : c;
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
        List<Instruction> list = module.computations().get(c).instructions();
        for (int j = 0; j < list.size(); j++) {
            Instruction i = list.get(j);
            if (i.opcode().equals("parameter") && i.parameterNumber() == p) return firstOfComputation[c] + j;
        }
        return -1;
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
