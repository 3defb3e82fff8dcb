package bufq.analysis.category;

import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One classification of a module's values, as the reports read it: each value's category by
 * position, which fell back to allocation kinds, which are entry parameters, and the text of the
 * user rule behind each user category. Immutable.
 */
final class Classification {
    private final String[] names;    // distinct categories, by code
    private final short[] codes;     // by value position
    final BitSet byKind;             // positions put in parameters or temporaries for want of an op_name
    final BitSet entry;              // positions of the entry parameters' values
    final boolean hasInstructions;
    private final Map<String, String> ruleText;   // a user category to the text of the first rule naming it
    private final String[] reasons;               // by value position: what the built-in rules saw (a copy of what), or null

    Classification(String[] byPosition, BitSet byKind, BitSet entry, boolean hasInstructions, Map<String, String> ruleText,
                   String[] reasons) {
        Map<String, Integer> code = new LinkedHashMap<>();
        short[] codes = new short[byPosition.length];
        for (int i = 0; i < byPosition.length; i++) {
            Integer c = code.get(byPosition[i]);
            if (c == null) {
                if (code.size() == Short.MAX_VALUE) throw new CategoryRules.RuleFailure("more than " + Short.MAX_VALUE + " categories");
                code.put(byPosition[i], c = code.size());
            }
            codes[i] = (short) (int) c;
        }
        this.names = code.keySet().toArray(new String[0]);
        this.codes = codes;
        this.byKind = byKind;
        this.entry = entry;
        this.hasInstructions = hasInstructions;
        this.ruleText = Map.copyOf(ruleText);
        this.reasons = reasons;
    }

    /** Why the built-in rules named the value so, where more than its rule says (what a copy copies), or null. */
    String reason(int position) { return reasons == null || position >= reasons.length ? null : reasons[position]; }

    String name(int position) { return names[codes[position]]; }

    boolean byKind(int position) { return byKind.get(position); }

    /** The text of the user rule that named {@code category}, or null for a built-in one. */
    String ruleText(String category) { return ruleText.get(category); }
}
