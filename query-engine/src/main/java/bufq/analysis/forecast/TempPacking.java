package bufq.analysis.forecast;

import bufq.analysis.diff.ValueRole;
import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.Shape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.WeakHashMap;

/**
 * The temp allocations of a template at other sizes, packed as XLA packs them ({@link HeapPacking}),
 * where replaying the template's own sizes gives back the template's offsets exactly; the others
 * are left to {@link Projection}'s groups.
 *
 * <p>Besides the temp, XLA's assigner puts a value into another allocation it fits (a donated
 * parameter's buffer, say) when their live ranges allow; at a size where the value outgrows that
 * allocation it cannot stay there and the heap simulator packs it with the temp. Such a value may
 * then take over an operand's bytes as the template's temp values do: a loop fusion of the same
 * shape starting where it dies, the rule checked on the template's own values first.
 *
 * @param allocation per value of the template, its allocation at {@code N}
 * @param offset     per value, its offset at {@code N} in a packed temp; {@code -1} where the groups decide
 * @param size       per packed temp allocation, its size at {@code N}
 * @param kept       per temp allocation left to the groups, why
 */
record TempPacking(int[] allocation, long[] offset, Map<Integer, Long> size, Map<Integer, String> kept) {

    /** A temp the simulator gives back: its values, the sharing read off it, whether its loop fusions show XLA's take-over rule. */
    private record Reproduced(int allocation, List<Integer> members, int[] share, boolean loopRule) {}

    /** Per template, its reproduced temps: worked out once, as {@code forecast fit} asks for many sizes. */
    private static final Map<HloModule, List<Reproduced>> TEMPLATES = Collections.synchronizedMap(new WeakHashMap<>());

    private static List<Reproduced> reproducedTemps(HloModule t) {
        return TEMPLATES.computeIfAbsent(t, m -> {
            List<Reproduced> out = new ArrayList<>();
            for (BufferAllocation a : m.allocations()) {
                if (!a.preallocatedTemp()) continue;
                List<Integer> members = members(m, a.index());
                int[] share = members == null || members.isEmpty() ? null : template(m, members);
                if (share != null) out.add(new Reproduced(a.index(), members, share, loopFusionsShare(m, members, share)));
            }
            return out;
        });
    }

    /** The template's temp allocations whose packing the simulator gives back exactly. */
    static TreeSet<Integer> reproduced(HloModule t) {
        TreeSet<Integer> out = new TreeSet<>();
        for (Reproduced r : reproducedTemps(t)) out.add(r.allocation());
        return out;
    }

    /** The temps of {@code t} at the sizes {@code size} (per value, at {@code N}), with {@code shape} their shapes there. */
    static TempPacking at(HloModule t, long[] size, Shape[] shape) {
        List<HloValue> vs = t.values();
        int[] home = new int[vs.size()];
        long[] offset = new long[vs.size()];
        for (int j = 0; j < home.length; j++) {
            home[j] = vs.get(j).allocation();
            offset[j] = -1;
        }
        Map<Integer, Long> sizes = new HashMap<>();
        Map<Integer, String> kept = new TreeMap<>();
        for (BufferAllocation a : t.allocations())
            if (a.preallocatedTemp()) kept.put(a.index(), "the heap simulator does not give back its packing in " + t.handle());
        List<Reproduced> reproduced = reproducedTemps(t);
        Map<Integer, List<Integer>> held = new HashMap<>();   // the values of each parameter's buffer
        if (!reproduced.isEmpty())
            for (int j = 0; j < vs.size(); j++)
                if (vs.get(j).hasRange() && t.allocation(vs.get(j).allocation()).isParameter())
                    held.computeIfAbsent(vs.get(j).allocation(), k -> new ArrayList<>()).add(j);
        for (Reproduced r : reproduced) {
            kept.remove(r.allocation());
            int[] share = r.share();
            List<Integer> moved = outgrown(t, t.allocation(r.allocation()), held, size);
            if (newRoom(t, t.allocation(r.allocation()), r.members(), held, size)) {
                kept.put(r.allocation(), "at this size a temp value could take a donated parameter's buffer, which XLA offers before the heap");
                continue;
            }
            List<Integer> all = new ArrayList<>(r.members());
            all.addAll(moved);
            int[] shareAll = Arrays.copyOf(share, all.size());
            Arrays.fill(shareAll, share.length, shareAll.length, -1);
            if (!moved.isEmpty() && r.loopRule()) takeOver(t, all, share.length, shareAll, size, shape);
            HeapPacking.Packing p = HeapPacking.pack(buffers(t, all, size, shareAll));
            if (p == null) {
                kept.put(r.allocation(), "its values cannot be replayed at this size");
                continue;
            }
            for (int q = 0; q < all.size(); q++) {
                home[all.get(q)] = r.allocation();
                offset[all.get(q)] = p.offset()[q];
            }
            sizes.put(r.allocation(), p.heapSize());
        }
        return new TempPacking(home, offset, sizes, kept);
    }

    /** The values of allocation {@code index} (positions in {@code t.values()}); null when one has no live range. */
    private static List<Integer> members(HloModule t, int index) {
        List<Integer> out = new ArrayList<>();
        for (int j = 0; j < t.values().size(); j++) {
            HloValue v = t.values().get(j);
            if (v.allocation() != index) continue;
            if (!v.hasRange() || v.offset() < 0) return null;
            out.add(j);
        }
        return out;
    }

    /** The sharing read off the template, when replaying its own sizes gives back its offsets; else null. */
    private static int[] template(HloModule t, List<Integer> members) {
        int n = members.size();
        long[] size = new long[t.values().size()], offset = new long[n];
        for (int j = 0; j < size.length; j++) size[j] = t.values().get(j).size();
        HeapPacking.Buffers b = buffers(t, members, size, null);
        for (int q = 0; q < n; q++) offset[q] = t.values().get(members.get(q)).offset();
        int[] share = HeapPacking.sharing(b.id(), b.start(), b.end(), offset, b.size());
        HeapPacking.Packing p = HeapPacking.pack(new HeapPacking.Buffers(b.id(), b.start(), b.end(), b.size(), share));
        if (p == null) return null;
        for (int q = 0; q < n; q++) if (b.size()[q] > 0 && p.offset()[q] != offset[q]) return null;
        return share;
    }

    private static HeapPacking.Buffers buffers(HloModule t, List<Integer> members, long[] size, int[] share) {
        int n = members.size();
        long[] id = new long[n], sz = new long[n];
        int[] start = new int[n], end = new int[n];
        for (int q = 0; q < n; q++) {
            HloValue v = t.values().get(members.get(q));
            id[q] = v.id();
            sz[q] = size[members.get(q)];
            start[q] = v.rangeStart();
            end[q] = v.rangeEnd();
        }
        return new HeapPacking.Buffers(id, start, end, sz, share);
    }

    /**
     * Values of the temp's colour held in a parameter's buffer that they outgrow at {@code N}: XLA
     * reuses a buffer only for a value that fits it. None where the colour has several temps.
     */
    private static List<Integer> outgrown(HloModule t, BufferAllocation temp, Map<Integer, List<Integer>> held, long[] size) {
        List<Integer> out = new ArrayList<>();
        List<HloValue> vs = t.values();
        int temps = 0;
        for (BufferAllocation a : t.allocations()) if (a.preallocatedTemp() && a.color() == temp.color()) temps++;
        if (temps != 1) return out;   // which of several temps would take it is not known
        for (Map.Entry<Integer, List<Integer>> e : held.entrySet()) {
            if (t.allocation(e.getKey()).color() != temp.color()) continue;
            long cap = -1;
            List<Integer> others = new ArrayList<>();
            for (int j : e.getValue()) {
                if (ValueRole.of(t, vs.get(j)) == ValueRole.PARAMETER) cap = Math.max(cap, size[j]);
                else others.add(j);
            }
            if (cap < 0) continue;
            for (int j : others) if (size[j] > cap) out.add(j);
        }
        out.sort(null);
        return out;
    }

    /**
     * Whether a temp value could take a donated parameter's buffer at {@code N} that it could not
     * take in the template (it fits now, or what held the buffer then outgrew it): XLA's assigner
     * offers a value such buffers before the heap, in an order the dump does not tell, so the
     * template's temp no longer says which values the heap packs.
     */
    private static boolean newRoom(HloModule t, BufferAllocation temp, List<Integer> members, Map<Integer, List<Integer>> held,
                                   long[] size) {
        List<HloValue> vs = t.values();
        for (Map.Entry<Integer, List<Integer>> e : held.entrySet()) {
            BufferAllocation a = t.allocation(e.getKey());
            if (!a.maybeLiveOut() || a.color() != temp.color()) continue;
            long then = -1, now = -1;
            for (int j : e.getValue()) {
                if (ValueRole.of(t, vs.get(j)) != ValueRole.PARAMETER) continue;
                then = Math.max(then, vs.get(j).size());
                now = Math.max(now, size[j]);
            }
            if (now < 0) continue;
            long cap = now;
            List<Integer> stays = e.getValue().stream().filter(j -> size[j] <= cap).toList();
            boolean left = stays.size() < e.getValue().size();
            for (int w : members) {
                // where nothing left the buffer, only a value that did not fit it then can newly take it
                if (size[w] > now || !left && vs.get(w).size() <= then || overlaps(vs, w, stays)) continue;
                if (vs.get(w).size() > then || overlaps(vs, w, e.getValue())) return true;
            }
        }
        return false;
    }

    private static boolean overlaps(List<HloValue> vs, int w, List<Integer> others) {
        HloValue x = vs.get(w);
        for (int j : others) {
            HloValue y = vs.get(j);
            if (x.rangeStart() <= y.rangeEnd() && y.rangeStart() <= x.rangeEnd()) return true;
        }
        return false;
    }

    /**
     * Whether in the template every temp value that is a loop fusion, starting where an operand of
     * its shape in the temp dies, shares the first such operand's bytes (and one does).
     */
    private static boolean loopFusionsShare(HloModule t, List<Integer> members, int[] share) {
        boolean any = false;
        for (int q = 0; q < members.size(); q++) {
            int r = takenOver(t, members, q, null);
            if (r < 0) continue;
            if (share[q] != r) return false;
            any = true;
        }
        return any;
    }

    /** For each temp value that shares nothing, the outgrown value (from {@code first} on) whose bytes it takes over at {@code N}. */
    private static void takeOver(HloModule t, List<Integer> all, int first, int[] share, long[] size, Shape[] shape) {
        for (int q = 0; q < first; q++) {
            if (share[q] >= 0) continue;
            int m = takenOver(t, all, q, shape);
            if (m >= first && size[all.get(q)] == size[all.get(m)]) share[q] = m;
        }
    }

    /**
     * The value among {@code values} whose bytes {@code values[user]} takes over, as XLA lets a loop
     * fusion do: its first operand of its own shape that dies at the step it starts; -1 when none.
     */
    private static int takenOver(HloModule t, List<Integer> values, int user, Shape[] shape) {
        HloValue u = t.values().get(values.get(user));
        HloInstruction ins = t.instruction(u.name());
        if (u.indexPrinted() || ins == null || !"fusion".equals(ins.opcode()) || !ins.attributes().contains("kind=kLoop")) return -1;
        Shape su = shape == null || shape[values.get(user)] == null ? u.shape() : shape[values.get(user)];
        for (String operand : ins.operands()) {
            for (int r = 0; r < values.size(); r++) {
                HloValue o = t.values().get(values.get(r));
                if (r == user || o.indexPrinted() || !o.name().equals(operand)) continue;
                Shape so = shape == null || shape[values.get(r)] == null ? o.shape() : shape[values.get(r)];
                if (o.rangeEnd() == u.rangeStart() && su != null && su.equals(so)) return r;
            }
        }
        return -1;
    }
}
