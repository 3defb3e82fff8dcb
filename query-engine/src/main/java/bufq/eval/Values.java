package bufq.eval;

import bufq.table.NaturalOrder;

import java.util.List;

/** Comparison of cell values (Long, Double, String, Boolean, List) for conditions and sorting. */
final class Values {
    private Values() {}

    /**
     * Whether a cell holds no value: null, or a float NaN (a script field's {@code 0/0} or a typo'd
     * property). As in SQL, every comparison with it is false, {@code is null} holds, it sorts
     * last and aggregates skip it; IEEE's "NaN is greater than everything" of {@link Double#compare}
     * would make {@code > 0.5} keep every row.
     */
    static boolean missing(Object v) {
        return v == null || v instanceof Double d && d.isNaN();
    }

    static int compareNumbers(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) return Long.compare(x, y);
        return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
    }

    /**
     * Total order within one column; nulls are handled by the caller. Strings compare in
     * {@link NaturalOrder} (runs of digits by value: {@code fusion.2} before {@code fusion.10}), since
     * HLO names end in numbers; without digits that is plain character order.
     */
    static int compare(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) return Long.compare(x, y);   // the common case, first
        if (a instanceof Number && b instanceof Number) return compareNumbers(a, b);
        if (a instanceof String x && b instanceof String y) return NaturalOrder.INSTANCE.compare(x, y);
        if (a instanceof Boolean x && b instanceof Boolean y) return Boolean.compare(x, y);
        if (a instanceof List<?> x && b instanceof List<?> y) {
            for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
                Object p = x.get(i), q = y.get(i);
                int c = p == null || q == null ? Boolean.compare(p == null, q == null) : compare(p, q);
                if (c != 0) return c;
            }
            return Integer.compare(x.size(), y.size());
        }
        return String.valueOf(a).compareTo(String.valueOf(b));
    }
}
