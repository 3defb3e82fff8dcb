package bufq.analysis.sharding;

import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The replication audit: entry parameters held replicated, or cut fewer ways than the mesh has
 * devices, grouped by the pytree leaf they belong to ({@code params['embed']} with
 * {@code opt_state[0].mu['embed']} and {@code .nu['embed']}), each group with the values of the
 * same per-device shape that a program copies them into (the gradients, the updates, the scan
 * carry's copies) and the {@code whatif} edit that models sharding them over every device. The
 * caller measures the edit; nothing here estimates a saving. Immutable.
 */
public final class Replication {
    private Replication() {}

    /**
     * One under-sharded array of the group.
     *
     * @param path its pytree path (the parameter's op_name), or its instruction name without one
     */
    public record Member(HloValue value, String path, HloSharding sharding) {}

    /**
     * Arrays of one pytree leaf that the mesh could cut further.
     *
     * @param leaf       the path below the tree's root ({@code ['embed']}), what the members share
     * @param members    the entry parameters, largest first
     * @param alike      values of a member's per-device shape and dtype that are no entry parameter: the
     *                   copies, gradients and updates sharding would cut too, and the all-gathers that
     *                   bring a sharded array up to a replicated one's shape (the update of a sharded
     *                   parameter by a replicated optimizer state gathers the parameter whole)
     * @param partitions the devices of the mesh
     */
    public record Group(String leaf, List<Member> members, List<HloValue> alike, long partitions) {
        public Group {
            members = List.copyOf(members);
            alike = List.copyOf(alike);
        }

        /** The members' bytes per device. */
        public long bytes() { return members.stream().mapToLong(x -> x.value().size()).sum(); }

        /** The same-shape values' bytes per device. */
        public long alikeBytes() { return alike.stream().mapToLong(HloValue::size).sum(); }

        /** The members' bytes per device were each cut {@code partitions} ways. */
        public long bytesSharded() {
            long n = 0;
            for (Member x : members) n += x.value().size() * x.sharding().shards() / partitions;
            return n;
        }

        /** Every value the edit changes: the members, then the alike values. */
        public List<HloValue> values() {
            List<HloValue> out = new ArrayList<>();
            for (Member x : members) out.add(x.value());
            out.addAll(alike);
            return out;
        }

        /** The paths of the members, in order. */
        public List<String> paths() { return members.stream().map(Member::path).toList(); }

        /** The members' shardings in words, distinct ({@code replicated}, {@code 1/2 per device}). */
        public String now() {
            Set<String> s = new java.util.LinkedHashSet<>();
            for (Member x : members) s.add(x.sharding().perDevice());
            return String.join(", ", s);
        }
    }

    /** What the audit found: the groups, largest first, and the mesh. */
    public record Audit(Shardings shardings, List<Group> groups) {
        public Audit {
            groups = List.copyOf(groups);
        }
    }

    /**
     * The module's under-sharded entry parameters, by leaf; none for a module on one device or
     * without its HLO text. Computed once and kept with the module.
     */
    public static Audit of(HloModule m) {
        return m.derived(Audit.class, Replication::audit);
    }

    private static Audit audit(HloModule m) {
        Shardings s = Shardings.of(m);
        long n = s.partitions();
        if (n <= 1) return new Audit(s, List.of());
        Map<String, List<Member>> byLeaf = new LinkedHashMap<>();
        Set<String> memberShapes = new HashSet<>();
        for (HloValue v : m.values()) {
            HloSharding h = s.shardingOf(v);
            if (h == null || v.shape() == null || !v.shape().isArray() || !cuttable(s, v, h, n)) continue;
            ShardedParameter p = s.parameterOf(v);
            String path = p.opName() != null && !p.opName().isEmpty() ? p.opName() : v.name();
            byLeaf.computeIfAbsent(leaf(path), k -> new ArrayList<>()).add(new Member(v, path, h));
            memberShapes.add(shapeKey(v));
        }
        // the values a program copies the members into, by shape: no parameter, no collective's result
        Map<String, List<HloValue>> alikeByShape = new HashMap<>();
        for (HloValue v : m.values()) {
            if (v.shape() == null || !memberShapes.contains(shapeKey(v)) || s.parameterOf(v) != null) continue;
            alikeByShape.computeIfAbsent(shapeKey(v), k -> new ArrayList<>()).add(v);
        }
        List<Group> out = new ArrayList<>();
        Set<String> claimed = new HashSet<>();
        for (Map.Entry<String, List<Member>> e : byLeaf.entrySet()) {
            List<Member> ms = new ArrayList<>(e.getValue());
            ms.sort(Comparator.comparingLong((Member x) -> -x.value().size()).thenComparing(Member::path));
            List<HloValue> alike = new ArrayList<>();
            // a shape's copies go to the first (largest) group of that shape; two leaves of one shape share them
            for (String k : new TreeMap<>(shapesOf(ms)).keySet()) {
                if (!claimed.add(k)) continue;
                alike.addAll(alikeByShape.getOrDefault(k, List.of()));
            }
            out.add(new Group(e.getKey(), ms, alike, n));
        }
        out.sort(Comparator.comparingLong((Group g) -> -(g.bytes() + g.alikeBytes())).thenComparing(Group::leaf));
        return new Audit(s, out);
    }

    /** The group holding one of {@code values} as a member, or null. */
    public static Group groupOf(HloModule m, List<HloValue> values) {
        for (Group g : of(m).groups())
            for (Member x : g.members()) for (HloValue v : values) if (x.value() == v) return g;
        return null;
    }

    private static Map<String, Boolean> shapesOf(List<Member> ms) {
        Map<String, Boolean> out = new HashMap<>();
        for (Member x : ms) out.put(shapeKey(x.value()), true);
        return out;
    }

    /**
     * Whether the mesh could cut {@code v} more: fewer pieces than devices, and some dimension of its
     * global shape that the missing factor divides (a scalar or a [3] vector stays replicated).
     */
    private static boolean cuttable(Shardings s, HloValue v, HloSharding h, long n) {
        if (h.kind() != HloSharding.Kind.REPLICATED && h.kind() != HloSharding.Kind.TILED) return false;
        long pieces = h.shards();
        if (pieces >= n || n % pieces != 0) return false;
        long more = n / pieces;
        long[] dims = v.shape().dims();
        for (long d : dims) if (d >= more && d % more == 0) return true;
        return false;
    }

    private static String shapeKey(HloValue v) {
        return v.shape().dtype() + Arrays.toString(v.shape().dims());
    }

    /**
     * The path below the pytree's root: {@code params['embed']} and {@code opt_state[0].mu['embed']}
     * both give {@code ['embed']}, {@code opt_state[0].mu[0]['w']} gives {@code [0]['w']}. The root
     * is the path up to its last attribute ({@code .mu}), or its first name without one.
     */
    static String leaf(String path) {
        int cut = -1;
        boolean quoted = false;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '\'' || c == '"') quoted = !quoted;
            if (!quoted && c == '.') cut = i;
        }
        int from = cut + 1;
        while (from < path.length() && (Character.isLetterOrDigit(path.charAt(from)) || path.charAt(from) == '_')) from++;
        String rest = path.substring(from);
        return rest.isEmpty() ? path : rest;
    }

    /**
     * How each value of {@code g} would be cut if its member were: ids by the pieces of it each
     * device holds now (1: replicated), fewest pieces first. Sharded over every device, each shrinks
     * by its pieces over the mesh's devices; {@code advise} measures that as a what-if.
     */
    public static Map<Long, List<Long>> idsByPieces(Group g) {
        Map<Long, List<Long>> byPieces = new TreeMap<>();
        Map<String, Long> pieces = new HashMap<>();
        for (Member x : g.members()) {
            byPieces.computeIfAbsent(x.sharding().shards(), k -> new ArrayList<>()).add(x.value().id());
            pieces.merge(shapeKey(x.value()), x.sharding().shards(), Math::min);
        }
        for (HloValue v : g.alike()) byPieces.computeIfAbsent(pieces.getOrDefault(shapeKey(v), 1L), k -> new ArrayList<>()).add(v.id());
        return byPieces;
    }
}
