package bufq.api;

import bufq.analysis.advise.Advice;
import bufq.analysis.advise.Facts;
import bufq.analysis.advise.Rule;
import bufq.analysis.category.CategoryRules;
import bufq.analysis.check.CheckRule;
import bufq.analysis.check.Reporter;
import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * What a client adds to the engine (a script's {@code bufq.rule}, {@code bufq.check},
 * {@code bufq.category}), as plain functions of a module: the engine runs them beside its own.
 * A function that fails throws {@link Failure}, whose message is shown as is.
 */
public final class Extensions {
    private Extensions() {}

    /** A user-written extension failed; the message says which and why, and is meant to be shown as is. */
    public static final class Failure extends RuntimeException {
        public Failure(String message) { super(message, null, false, false); }
    }

    /**
     * An {@code advise} rule: {@code find(module)} proposes changes, each measured by advise like a
     * built-in rule's.
     */
    public record AdviseRule(String name, Function<HloModule, List<Proposal>> find) {}

    /**
     * One change a rule proposes.
     *
     * @param edits  the what-if edits that make it ({@link Whatif.Edits#parse})
     * @param values the values behind the finding, for the evidence table
     * @param jax    the JAX code that makes the change, or null
     */
    public record Proposal(String finding, Whatif.Edits edits, List<HloValue> values, String jax) {
        public Proposal {
            values = List.copyOf(values);
        }
    }

    /** A {@code check}: {@code run(module, report)} reports what it finds. */
    public record Check(String name, BiConsumer<HloModule, Report> run) {}

    /** Where a {@link Check} reports, by severity. */
    public interface Report {
        void error(String subject, String message);
        void warn(String subject, String message);
        void info(String subject, String message);
    }

    /**
     * A category rule: {@code classify(module)} names each value's category by position in the
     * module's values, null where it names none.
     *
     * @param text how the rule is listed ({@code bufq.category(fn) at rules.js:3})
     */
    public record Category(String text, Function<HloModule, String[]> classify) {}

    /** The rules as advise runs them, a script's after the built-in ones. */
    static List<Rule> rules(List<AdviseRule> rules) {
        return rules.stream().map(Extensions::rule).toList();
    }

    private static Rule rule(AdviseRule r) {
        return new Rule() {
            @Override public String name() { return r.name(); }
            @Override public String description() { return "defined by a script"; }
            @Override public List<Advice> find(Facts facts) {
                List<Advice> out = new ArrayList<>();
                try {
                    for (Proposal p : r.find().apply(facts.module()))
                        out.add(new Advice(r.name(), p.finding(), p.edits().edits(), p.values(), 0, p.jax()));
                } catch (Failure f) {
                    throw new Rule.RuleFailure(f.getMessage());
                }
                return out;
            }
        };
    }

    /** The checks as the check analysis runs them, in its own types (for callers inside the engine and its tests). */
    public static List<CheckRule> checks(List<Check> checks) {
        return checks.stream().map(Extensions::check).toList();
    }

    private static CheckRule check(Check c) {
        return new CheckRule() {
            @Override public String name() { return c.name(); }
            @Override public void run(HloModule m, Reporter r) {
                c.run().accept(m, new Report() {
                    @Override public void error(String subject, String message) { r.error(subject, message); }
                    @Override public void warn(String subject, String message) { r.warn(subject, message); }
                    @Override public void info(String subject, String message) { r.info(subject, message); }
                });
            }
        };
    }

    /** The category rule as the classification runs it. */
    static CategoryRules.Rule category(Category c) {
        return new CategoryRules.Rule() {
            @Override public String text() { return c.text(); }
            @Override public String[] classify(HloModule m) { return c.classify().apply(m); }
        };
    }
}
