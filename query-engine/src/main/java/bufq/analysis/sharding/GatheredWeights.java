package bufq.analysis.sharding;

import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which parameter an all-gathered value copies: by the {@code gathered weights} category where the
 * classification gives it, else by a trace of the value itself: made by an all-gather (CPU
 * {@code all-gather}, TPU {@code all-gather.N} and its async {@code -start}/{@code -done}, or a
 * fusion named for one) with the global dimensions of a sharded entry parameter of the module
 * (any dtype: JAX gathers the bf16 copy of an f32 weight).
 */
public final class GatheredWeights {
    private GatheredWeights() {}

    /** The category name the classification gives all-gathered copies of weights. */
    public static final String CATEGORY = "gathered weights";

    /**
     * The pytree path of the sharded parameter {@code v} is a gathered copy of ({@code params['unembed']}),
     * "a weight" when only the category says so, or null when it is none.
     *
     * @param category {@code v}'s category, or null
     */
    public static String parameterOf(HloModule m, HloValue v, String category) {
        String traced = traced(m, v);
        if (traced != null) return traced;
        return CATEGORY.equals(category) ? "a weight" : null;
    }

    /** The path by the trace alone, or null. */
    static String traced(HloModule m, HloValue v) {
        String n = v.name();
        if (v.shape() == null || !v.shape().isArray() || !(n.startsWith("all-gather") || n.contains("all-gather"))) return null;
        return byDims(m).get(Arrays.toString(v.shape().dims()));
    }

    /** Sharded entry parameters by their global dimensions (the first path of each), kept with the module. */
    private static Map<String, String> byDims(HloModule m) {
        return m.derived(Index.class, x -> {
            Shardings s = Shardings.of(x);
            Map<String, String> out = new HashMap<>();
            for (HloValue v : x.values()) {
                HloSharding h = s.shardingOf(v);
                ShardedParameter p = s.parameterOf(v);
                if (h == null || h.shards() <= 1 || v.shape() == null || !v.shape().isArray()) continue;
                String path = p.opName() == null || p.opName().isEmpty() ? v.name() : p.opName();
                if (path.startsWith("opt_state")) continue;   // the optimizer state is never gathered for a matmul
                out.putIfAbsent(Arrays.toString(h.globalDims(v.shape().dims())), path);
            }
            return new Index(out);
        }).byDims();
    }

    private record Index(Map<String, String> byDims) {}

    /** The values at the given list gathered from a parameter, for tests and reports. */
    public static List<HloValue> of(HloModule m, List<HloValue> values) {
        return values.stream().filter(v -> traced(m, v) != null).toList();
    }
}
