package bufq.api;

import bufq.analysis.category.CategoryRules;
import bufq.eval.Catalog;
import bufq.eval.CategoryCondition;
import bufq.lang.QueryException;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.util.function.UnaryOperator;

/**
 * The category rules a client sets before the built-in ones ({@code set category NAME = CONDITION},
 * a script's {@code bufq.category}): each change gives the catalog that follows it, so the
 * {@code category} fields and every command that reads categories agree.
 */
public final class Categorize {
    private Categorize() {}

    /** {@code set category}'s listing: the rules, in order. */
    public static Table rules(Catalog catalog) {
        CategoryRules rules = catalog.categories();
        Table.Builder b = Table.builder().key("category_rules").title("category rules, in order, before the built-in ones")
                .column("order", ColumnType.INT).column("rule", ColumnType.STRING);
        for (int i = 0; i < rules.rules().size(); i++) b.row((long) i + 1, rules.rules().get(i).text());
        if (rules.isEmpty()) b.note("none: the built-in rules alone (docs/commands.md, 'What is this memory?')");
        return b.build();
    }

    /**
     * Checks a category name a user gives: a word of letters, digits, {@code _}, {@code -} and
     * {@code .}, starting with a letter or {@code _}, at most 64 characters.
     *
     * @throws IllegalArgumentException naming what was expected
     */
    public static String checkName(String name) { return CategoryRules.checkName(name); }

    /**
     * {@code NAME = CONDITION}, compiled against {@code catalog}, as the change that puts it after a
     * catalog's rules.
     *
     * @param at where the condition starts in the statement, for the spans of its errors
     * @throws QueryException when the condition does not compile
     */
    public static UnaryOperator<Catalog> addCondition(Catalog catalog, String name, String condition, int at) throws QueryException {
        CategoryRules.Rule rule = CategoryCondition.compile(name, condition, catalog, at);
        return c -> c.withCategories(c.categories().with(rule));
    }

    /** The change that puts a client's rule after a catalog's rules. */
    public static UnaryOperator<Catalog> addRule(Extensions.Category rule) {
        CategoryRules.Rule r = Extensions.category(rule);
        return c -> c.withCategories(c.categories().with(r));
    }

    /** {@code catalog} with the built-in rules alone ({@code set category off}; what a rule that refines them reads). */
    public static Catalog builtinOnly(Catalog catalog) {
        return catalog.withCategories(CategoryRules.NONE);
    }
}
