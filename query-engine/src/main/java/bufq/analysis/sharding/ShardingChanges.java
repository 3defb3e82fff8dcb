package bufq.analysis.sharding;

import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The entry parameters whose sharding differs between two compiles of one program, matched by
 * pytree path ({@code op_name}): {@code params['embed']: 1/4 per device -> replicated}.
 */
public final class ShardingChanges {
    private ShardingChanges() {}

    /**
     * One argument cut otherwise.
     *
     * @param before      its sharding in words on the before side ({@code 1/4 per device})
     * @param bytesBefore its bytes per device there
     */
    public record Change(String path, String before, String after, long bytesBefore, long bytesAfter) {
        /** {@code params['embed']: 1/4 per device -> replicated}. */
        public String line() { return path + ": " + before + " -> " + after; }
    }

    /** The changes from {@code before} to {@code after}, in the before side's parameter order; empty when either has no HLO text. */
    public static List<Change> between(HloModule before, HloModule after) {
        Map<String, HloValue> b = byPath(before), a = byPath(after);
        Shardings sb = Shardings.of(before), sa = Shardings.of(after);
        List<Change> out = new ArrayList<>();
        for (Map.Entry<String, HloValue> e : b.entrySet()) {
            HloValue x = e.getValue(), y = a.get(e.getKey());
            if (y == null) continue;
            HloSharding hx = sb.shardingOf(x), hy = sa.shardingOf(y);
            if (hx == null || hy == null) continue;
            String wx = hx.perDevice(), wy = hy.perDevice();
            if (!wx.equals(wy)) out.add(new Change(e.getKey(), wx, wy, x.size(), y.size()));
        }
        return out;
    }

    /** The module's entry parameter values with a sharding, by path (the first of a path). */
    private static Map<String, HloValue> byPath(HloModule m) {
        Shardings s = Shardings.of(m);
        Map<String, HloValue> out = new LinkedHashMap<>();
        if (!s.known()) return out;
        for (HloValue v : m.values()) {
            ShardedParameter p = s.parameterOf(v);
            if (p == null || p.opName() == null || p.opName().isEmpty() || s.shardingOf(v) == null) continue;
            out.putIfAbsent(p.opName() + (v.index() == null || v.index().equals("{}") ? "" : v.index()), v);
        }
        return out;
    }
}
