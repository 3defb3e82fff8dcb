package bufq.dump.proto;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Live ranges computed from the schedule and the uses, as XLA's {@code HloLiveRange} does for a
 * module-scoped heap simulation (what the text dump's {@code -live-range.txt} prints):
 * <ul>
 * <li>the schedule is flattened: the entry's sequence, each while's condition and body (and each
 *     call's or conditional's computations) placed before the instruction that runs them;</li>
 * <li>a value starts at its defining instruction (a parameter at its computation's start) and ends
 *     at its last position or use, a while's use counted at its body's parameter; a position in a
 *     computation's root extends it to that computation's end; an entry parameter that no output
 *     aliases lives to the end;</li>
 * <li>values sharing a buffer (the proto's {@code buffer_aliases}) are cut so they do not overlap:
 *     each ends where the next one starts.</li>
 * </ul>
 */
final class LiveRanges {
    final List<String> sequence = new ArrayList<>();
    final int[] time;                 // instruction -> time, -1 when not scheduled
    final int endTime;                // schedule_end_time: the flattened schedule's length
    final int[] start, end;           // per value; start -1 when the value has no range
    private final int[][] span;       // computation -> {start, end}, null when not flattened

    /** @param aliasGroups groups of values sharing a buffer, each sorted by its buffers' ids */
    LiveRanges(Graph g, Dataflow d, Map<Long, long[]> schedule, List<int[]> aliasGroups, List<Messages.Alias> ioAliases) {
        time = new int[g.size()];
        Arrays.fill(time, -1);
        span = new int[g.module.computations().size()][];
        if (g.entry >= 0) flatten(g, g.entry, schedule);
        endTime = sequence.size();
        int nv = d.values.size();
        start = new int[nv];
        end = new int[nv];
        Arrays.fill(start, -1);
        // The output aliases by parameter number: each entry parameter's values look at their own.
        Map<Long, List<long[]>> aliasesOf = new HashMap<>();
        for (Messages.Alias a : ioAliases) aliasesOf.computeIfAbsent(a.parameterNumber(), x -> new ArrayList<>(1)).add(a.parameterIndex());
        for (int v = 0; v < nv; v++) {
            FlowValue val = d.values.get(v);
            if (!val.live) continue;
            int i = val.instruction;
            if (time[i] < 0) continue;
            int c = g.computationOf[i];
            boolean param = g.op[i] == Op.PARAMETER;
            int s = param ? span[c][0] : time[i];
            int definitionEnd = g.isRoot(i) ? span[c][1] : time[i];
            int e = definitionEnd;
            for (int p = 1; p < val.positions.size(); p++) {
                int at = val.positions.get(p)[0];
                int t;
                if (g.isRoot(at)) {
                    int[] sp = span[g.computationOf[at]];
                    if (sp == null) continue;
                    t = sp[1];
                } else {
                    t = time[at];
                    if (t < 0) continue;
                }
                e = Math.max(e, t);
            }
            if (param && c == g.entry && !aliased(aliasesOf, g.ins[i].parameterNumber(), val.index)) {
                e = endTime;
            } else {
                e = Math.max(e, lastUse(g, val));
            }
            start[v] = s;
            end[v] = e;
        }
        normalize(aliasGroups);
    }

    private void flatten(Graph g, int c, Map<Long, long[]> schedule) {
        if (span[c] != null) return;
        long[] ids = schedule.get(g.module.computations().get(c).id());
        if (ids == null) return;
        int from = sequence.size();
        span[c] = new int[] {from, from};   // marks it as being flattened (no recursion through a cycle)
        for (long id : ids) {
            int i = g.number(id);
            if (i < 0) continue;
            Op op = g.op[i];
            if (op == Op.CALL || op == Op.CONDITIONAL) {
                for (int callee : g.called(i)) if (callee >= 0) flatten(g, callee, schedule);
            } else if (op == Op.WHILE) {
                int[] parts = g.whileParts(i);
                if (parts[0] >= 0) flatten(g, parts[0], schedule);
                if (parts[1] >= 0) flatten(g, parts[1], schedule);
            }
            if (time[i] >= 0) continue;
            time[i] = sequence.size();
            sequence.add(g.name(i));
        }
        span[c] = new int[] {from, sequence.size()};
    }

    private int lastUse(Graph g, FlowValue v) {
        int e = -1;
        for (FlowValue.Use u : v.uses) {
            int used = u.user();
            if (g.op[used] == Op.WHILE) {
                int body = g.whileParts(used)[1];
                int p = body < 0 ? -1 : g.parameter(body, 0);
                if (p >= 0) used = p;
            }
            if (time[used] >= 0) e = Math.max(e, time[used]);
        }
        return e;
    }

    private static boolean aliased(Map<Long, List<long[]>> aliasesOf, long parameter, int[] index) {
        List<long[]> indexes = aliasesOf.get(parameter);
        if (indexes == null) return false;
        for (long[] a : indexes) {
            if (a.length != index.length) continue;
            boolean same = true;
            for (int k = 0; k < index.length; k++) same &= a[k] == index[k];
            if (same) return true;
        }
        return false;
    }

    /** HloLiveRange's NormalizeAliasedBuffers over each group of values sharing a buffer. */
    private void normalize(List<int[]> groups) {
        for (int[] group : groups) {
            List<Integer> vs = new ArrayList<>(group.length);
            for (int v : group) if (start[v] >= 0) vs.add(v);
            // A stable sort: values starting and ending together stay in buffer id order.
            vs.sort((a, b) -> start[a] != start[b] ? Integer.compare(start[a], start[b]) : Integer.compare(end[a], end[b]));
            for (int k = 0; k + 1 < vs.size(); k++) {
                int a = vs.get(k), b = vs.get(k + 1);
                end[b] = Math.max(end[a], end[b]);
                end[a] = Math.min(end[a], start[b]);
            }
        }
    }
}
