package bufq.analysis.category;

import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.table.Output;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Each value of one module in one category: by the user's {@link CategoryRules} where one names it,
 * else by the built-in rules, from the program's dataflow ({@code weights}, {@code optimizer},
 * {@code inputs}, {@code gathered weights}, {@code outputs}, {@code residuals}, {@code recomputed},
 * {@code gradients}, {@code cotangents}, {@code collectives}, {@code constants}, {@code temporaries};
 * {@code parameters} for entry parameters without an op_name or role). Computed once per module and set of
 * rules, in the module's holder of derived data, and shared by queries and reports. Immutable.
 *
 * <p>The reports ({@link #blame}, {@link #paths}) attribute the bytes occupied at one step, each
 * byte once ({@link bufq.analysis.liveness.OccupiedShares}), so their top-level rows add up to the step's occupied bytes.
 */
public final class Categories {
    private final Classification data;

    private Categories(Classification data) { this.data = data; }

    /** The built-in classification of {@code m}, computed on first use and kept with the module. */
    public static Categories of(HloModule m) {
        return m.derived(Categories.class, x -> {
            Builtin.Result r = Builtin.classify(x);
            return new Categories(new Classification(r.names(), r.byKind(), r.entry(), r.hasInstructions(), Map.of(), r.reasons()));
        });
    }

    /**
     * {@code m}'s values classified by {@code rules}, then the built-in rules: computed once for the
     * latest rules asked of this module (a session has one set at a time).
     *
     * @throws CategoryRules.RuleFailure when a rule fails, its message naming the rule
     */
    public static Categories of(HloModule m, CategoryRules rules) {
        if (rules == null || rules.isEmpty()) return of(m);
        return m.derived(Latest.class, x -> new Latest()).get(rules, () -> withRules(m, rules));
    }

    /** The classification for the rules last asked, kept beside the built-in one. */
    private static final class Latest {
        private record Entry(CategoryRules rules, Categories categories) {}

        private final AtomicReference<Entry> last = new AtomicReference<>();

        Categories get(CategoryRules rules, Supplier<Categories> compute) {
            Entry l = last.get();
            if (l != null && l.rules() == rules) return l.categories();
            Categories c = compute.get();
            last.set(new Entry(rules, c));
            return c;
        }
    }

    private static Categories withRules(HloModule m, CategoryRules rules) {
        Categories builtin = of(m);
        int n = m.values().size();
        String[] out = new String[n];
        Map<String, String> texts = new HashMap<>();
        BitSet byKind = new BitSet();
        for (CategoryRules.Rule r : rules.rules()) {
            String[] named;
            try {
                named = r.classify(m);
            } catch (CategoryRules.RuleFailure f) {
                throw f;
            } catch (RuntimeException e) {
                throw new CategoryRules.RuleFailure("category rule '" + r.text() + "' failed: " + (e.getMessage() == null ? e : e.getMessage())
                        + " ('set category off' drops the rules)");
            }
            if (named == null || named.length != n)
                throw new CategoryRules.RuleFailure("category rule '" + r.text() + "' named " + (named == null ? "no" : named.length)
                        + " values of " + n);
            for (int i = 0; i < n; i++) {
                if (out[i] != null || named[i] == null) continue;
                try {
                    out[i] = CategoryRules.checkName(named[i]);
                } catch (IllegalArgumentException e) {
                    throw new CategoryRules.RuleFailure("category rule '" + r.text() + "' gave value " + m.values().get(i).label() + " "
                            + e.getMessage());
                }
                texts.putIfAbsent(out[i], r.text());
            }
        }
        for (int i = 0; i < n; i++) {
            if (out[i] != null) continue;
            out[i] = builtin.name(i);
            if (builtin.byKind(i)) byKind.set(i);
        }
        // A rule's name that is also a built-in one is still the rule's where the rule gave it.
        String[] reasons = new String[n];
        for (int i = 0; i < n; i++) if (out[i].equals(builtin.name(i))) reasons[i] = builtin.reason(i);
        return new Categories(new Classification(out, byKind, builtin.data.entry, builtin.data.hasInstructions, texts, reasons));
    }

    /** The category of the value at {@code position} in the module's values. */
    public String name(int position) { return data.name(position); }

    /** The category of {@code v}, a value of {@code m} (this classification's module), or null when it is not one. */
    public String of(HloModule m, HloValue v) {
        int p = m.positionOf(v);
        return p < 0 ? null : name(p);
    }

    /**
     * What the built-in rules saw in the value at {@code position} beyond its category's rule: for an
     * entry parameter its role ({@code updated by the program and read by the model}), for a copy of
     * one what it copies ({@code a converted copy of params['w1']}); null otherwise.
     */
    public String reason(int position) { return data.reason(position); }

    /** The value at {@code position} had no op_name, and its allocation's kind put it in parameters or temporaries. */
    public boolean byKind(int position) { return data.byKind(position); }

    /**
     * What the program's arguments are: the sizes of {@code m}'s entry parameters' values summed by
     * category ({@code weights}, {@code optimizer}, {@code inputs}, ...), largest first.
     */
    public Map<String, Long> parameterBytes(HloModule m) {
        Map<String, Long> sum = new LinkedHashMap<>();
        for (int i = data.entry.nextSetBit(0); i >= 0; i = data.entry.nextSetBit(i + 1)) sum.merge(name(i), m.values().get(i).size(), Long::sum);
        return sum;
    }

    /** The module has instructions to read op_names from (a Used values section). */
    public boolean hasInstructions() { return data.hasInstructions; }

    /** The all-gathered copies of weights (FSDP's gathered parameters): a built-in category. */
    public static final String GATHERED_WEIGHTS = Builtin.GATHERED;

    /** The built-in category names, in their order ({@code parameters} only where op_names are missing). */
    public static List<String> builtinNames() { return Builtin.ORDER; }

    /**
     * The bytes occupied at step {@code t} of {@code m} by category, each byte once: they add up to
     * the step's occupied bytes. Categories holding nothing then are left out; largest first.
     */
    public static Map<String, Long> bytesAt(HloModule m, CategoryRules rules, int t) {
        Categories c = of(m, rules);
        Occupied o = Occupied.at(m, t);
        Map<String, Long> sum = new HashMap<>();
        for (int i = 0; i < o.size(); i++) sum.merge(c.name(o.positions()[i]), o.shares()[i], Long::sum);
        return largestFirst(sum);
    }

    /** {@code sum}'s entries largest first, ties in the built-in order, then by name. */
    private static Map<String, Long> largestFirst(Map<String, Long> sum) {
        List<Map.Entry<String, Long>> rows = new ArrayList<>(sum.entrySet());
        rows.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(e -> Builtin.rank(e.getKey())).thenComparing(Map.Entry::getKey));
        Map<String, Long> out = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : rows) out.put(e.getKey(), e.getValue());
        return out;
    }

    /**
     * What allocation {@code allocation} of {@code m} holds at its busiest step, by category, largest
     * first: {@code "3.1GiB residuals, 1.0GiB gradients at step 152"}, each byte once; null when
     * none of its values has a live range. For a failing allocation an out-of-memory error names.
     */
    public static String holding(HloModule m, CategoryRules rules, int allocation) {
        int t = Liveness.of(m).allocationUse(allocation).maxTime();
        if (t < 0) return null;
        Categories c = of(m, rules);
        // shares are per allocation, so the others' values live then change none of this one's
        Occupied o = Occupied.at(m, t);
        Map<String, Long> sum = new HashMap<>();
        for (int i = 0; i < o.size(); i++)
            if (o.live().get(i).allocation() == allocation) sum.merge(c.name(o.positions()[i]), o.shares()[i], Long::sum);
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, Long> e : largestFirst(sum).entrySet()) {
            if (out.length() > 0) out.append(", ");
            out.append(Units.human(e.getValue())).append(' ').append(e.getKey());
        }
        return out.append(" at step ").append(t).toString();
    }


    /**
     * {@code blame by category}: the bytes occupied at step {@code t} (named {@code at} in the
     * statements it prints: {@code peak}, {@code claimed_peak} or the step) in one row per category,
     * rows adding up to the step's occupied bytes.
     */
    public static List<Output> blame(HloModule m, CategoryRules rules, int t, String at) {
        return List.of(CategoryReport.run(m, of(m, rules).data, t, at));
    }

    /**
     * {@code blame by path}: the bytes occupied at step {@code t} by op_name and parameter path, paths
     * that differ only in an index folded into one row ({@code params[*]['wq']}), as a tree down to
     * {@code depth} (0 or less: all).
     */
    public static List<Output> paths(HloModule m, CategoryRules rules, int t, String at, int depth) {
        return List.of(PathReport.run(m, of(m, rules).data, t, at, depth));
    }

    /** Splits an op_name at {@code /} outside parentheses and brackets: {@code jit(f)/jvp(a/b)/div} has three parts. */
    public static List<String> splitOpName(String op) { return OpNames.split(op); }
}
