package bufq.eval;

import bufq.analysis.category.CategoryRules;
import bufq.lang.Ast;
import bufq.lang.Diagnostic;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;

/**
 * {@code set category NAME = CONDITION}: the values that {@code values where CONDITION} selects are
 * {@code NAME}. The condition is checked once, when the rule is made, and sees the built-in
 * categories in its own {@code category} field (so {@code category = "residuals" and size > 1MiB}
 * refines one).
 */
public final class CategoryCondition implements CategoryRules.Rule {
    private static final String PREFIX = "values where ";

    private final String name;
    private final String condition;
    private final Query query;

    private CategoryCondition(String name, String condition, Query query) {
        this.name = name;
        this.condition = condition;
        this.query = query;
    }

    /**
     * Checks {@code condition} against {@code catalog}'s fields (a script's too).
     *
     * @param at where the condition starts in the statement the user typed: spans of a failure count from there
     * @throws QueryException with a span in that statement, for a bad condition or name
     */
    public static CategoryCondition compile(String name, String condition, Catalog catalog, int at) throws QueryException {
        try {
            CategoryRules.checkName(name);
        } catch (IllegalArgumentException e) {
            throw new QueryException(0, 0, e.getMessage());
        }
        try {
            Query q = Query.compile(PREFIX + condition, catalog.withCategories(CategoryRules.NONE));
            Ast.Query a = q.ast();
            if (a.where() == null) throw new QueryException(PREFIX.length(), PREFIX.length() + condition.length(), "set category needs a condition after '='");
            if (!a.groupBy().isEmpty() || !a.show().isEmpty() || !a.orderBy().isEmpty() || a.limit() != null)
                throw new QueryException(PREFIX.length(), PREFIX.length() + condition.length(),
                        "set category takes a condition only, without group by, show, order by or limit");
            return new CategoryCondition(name, condition.strip(), q);
        } catch (QueryException e) {
            Diagnostic d = e.diagnostic();
            int shift = at - PREFIX.length();
            throw new QueryException(new Diagnostic(Math.max(at, d.start() + shift), Math.max(at, d.end() + shift), d.message(),
                    d.suggestions()));
        }
    }

    public String name() { return name; }

    @Override public String text() { return "set category " + name + " = " + condition; }

    @Override public String[] classify(HloModule m) {
        String[] out = new String[m.values().size()];
        try {
            for (Object o : query.select(new EvalContext(m))) {
                int p = m.positionOf((HloValue) o);
                if (p >= 0) out[p] = name;
            }
        } catch (QueryException e) {
            throw new CategoryRules.RuleFailure("'" + text() + "' failed on " + m.handle() + ": " + e.diagnostic().message());
        }
        return out;
    }
}
