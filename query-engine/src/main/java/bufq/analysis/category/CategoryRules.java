package bufq.analysis.category;

import bufq.model.HloModule;

import java.util.ArrayList;
import java.util.List;

/**
 * A user's classification, evaluated before the built-in rules and in order: the first rule that
 * names a value gives its category; a value no rule names keeps its built-in one. Immutable: adding
 * a rule makes new rules, so a module's classification is computed once per set of rules.
 */
public final class CategoryRules {
    /** No user rules: the built-in classification alone. */
    public static final CategoryRules NONE = new CategoryRules(List.of());

    /** One user rule: {@code set category NAME = CONDITION}, or a script's classification function. */
    public interface Rule {
        /** How the rule is listed: {@code set category big = size > 1MiB}, {@code bufq.category(fn) at rules.js:3}. */
        String text();

        /**
         * What this rule calls each value of {@code m}, by position in {@link HloModule#values()};
         * null where it names none (a rule that refines the built-in categories reads them with
         * {@code Categories.of(m)}). A failure throws {@link RuleFailure} (or any runtime exception,
         * which the caller reports as this rule's).
         */
        String[] classify(HloModule m);
    }

    /** A rule that could not classify a module: its message says which rule and why. */
    public static final class RuleFailure extends RuntimeException {
        public RuleFailure(String message) { super(message, null, false, false); }
    }

    private final List<Rule> rules;

    private CategoryRules(List<Rule> rules) { this.rules = List.copyOf(rules); }

    /** These rules and then {@code rule}. */
    public CategoryRules with(Rule rule) {
        List<Rule> out = new ArrayList<>(rules);
        out.add(rule);
        return new CategoryRules(out);
    }

    public List<Rule> rules() { return rules; }

    public boolean isEmpty() { return rules.isEmpty(); }

    /**
     * Checks a category name a user gives: a word of letters, digits, {@code _}, {@code -} and
     * {@code .}, starting with a letter or {@code _}, at most 64 characters.
     *
     * @throws IllegalArgumentException naming what was expected
     */
    public static String checkName(String name) {
        if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_.-]{0,63}"))
            throw new IllegalArgumentException("a category name is a word of letters, digits, _, - and . (starting with a letter or _, "
                    + "at most 64 characters), not " + (name == null ? "null" : "'" + name + "'"));
        return name;
    }
}
