package bufq.eval;

import bufq.lang.Ast;
import bufq.lang.Parser;
import bufq.lang.QueryException;
import bufq.model.TilingModel;
import bufq.table.Column;
import bufq.table.Table;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.ArrayList;
import java.util.HashSet;

/**
 * A compiled query: parsed and checked once against a {@link Catalog}, then run on any number of
 * modules. Immutable and thread-safe. Neither method throws anything but {@link QueryException}.
 */
public final class Query {
    private final String text;
    private final Ast.Query ast;
    private final Plan plan;
    private final boolean readsUsedValues;

    private Query(String text, Ast.Query ast, Plan plan, boolean readsUsedValues) {
        this.text = text;
        this.ast = ast;
        this.plan = plan;
        this.readsUsedValues = readsUsedValues;
    }

    /** Parses and checks {@code text}: unknown names, wrong types or arity and bad regexes fail here. */
    public static Query compile(String text, Catalog catalog) throws QueryException {
        String src = text == null ? "" : text;
        return check(src, parse(src), catalog);
    }

    /**
     * Parses {@code text} as {@link #compile} does, without checking it: a caller that checks it
     * against a catalog that may still change (a script adds a field it names) parses it once and
     * {@link #check}s the tree again.
     */
    public static Ast.Query parse(String text) throws QueryException {
        String src = text == null ? "" : text;
        return guardedCompile(src, () -> Parser.parse(src));
    }

    /** Checks {@code parsed}, the tree {@link #parse} made of {@code text}, against {@code catalog}. */
    public static Query check(String text, Ast.Query parsed, Catalog catalog) throws QueryException {
        String src = text == null ? "" : text;
        Catalog c = catalog == null ? Catalog.standard() : catalog;
        return guardedCompile(src, () -> new Query(src, parsed, Checker.check(parsed, c, src), readsUsedValues(parsed, c)));
    }

    /**
     * The fields {@code parsed} names that {@code catalog} does not have for its entity, in the order
     * written, each once (an alias named in {@code order by} is none): what a script may yet define.
     * Empty for an entity the catalog does not have.
     */
    public static List<String> unknownFields(Ast.Query parsed, Catalog catalog) {
        String entity = parsed.entity().text().toLowerCase(Locale.ROOT);
        if (!catalog.entities().contains(entity)) return List.of();
        List<String> named = new ArrayList<>();
        fields(parsed.where(), named);
        for (Ast.Name n : parsed.groupBy()) named.add(n.text());
        for (Ast.Item i : parsed.show()) fields(i.expr(), named);
        for (Ast.OrderKey k : parsed.orderBy()) fields(k.expr(), named);
        Set<String> aliases = new HashSet<>();
        for (Ast.Item i : parsed.show()) if (i.alias() != null) aliases.add(i.alias().text());
        List<String> out = new ArrayList<>();
        for (String f : named) {
            if (!aliases.contains(f) && catalog.field(entity, f) == null && !out.contains(f)) out.add(f);
        }
        return out;
    }

    private static <T> T guardedCompile(String src, Work<T> work) throws QueryException {
        try {
            return work.run();
        } catch (RuntimeException e) {
            // A bug in bufq must still reach the user as a message, never as a stack trace. A
            // StackOverflowError is not caught: the parser's depth guard keeps a query from causing one,
            // so it is the caller's recursion (a script calling bufq.query from itself), which the
            // caller reports as such; caught here it read as a bug in the query.
            throw new QueryException(0, src.length(), "internal error compiling the query: " + e);
        }
    }

    /**
     * Runs on one module. Fails (with a span in the query) when a time cannot be resolved in this
     * module ({@code live at fusion.9} where no such instruction exists), a script field or tiling
     * model throws, or the running thread is interrupted ("query cancelled"; the interrupt flag stays set).
     */
    public Table run(EvalContext ctx) throws QueryException {
        return guarded(ctx, () -> Executor.run(plan, ctx));
    }

    /**
     * The rows of the entity that a plain query selects (its {@code where}, {@code live} clauses,
     * {@code order by} and {@code limit}; its {@code show} is ignored), as model objects: values are
     * {@code HloValue}s. For commands that act on a selection. Fails like {@link #run}, and for a
     * query that groups or aggregates.
     */
    public List<Object> select(EvalContext ctx) throws QueryException {
        if (plan.aggregated()) throw new QueryException(0, text.length(), "a selection cannot group or aggregate: drop 'group by' and aggregates");
        return guarded(ctx, () -> Executor.select(plan, ctx));
    }

    private interface Work<T> { T run() throws QueryException; }

    /** Runs {@code work} on {@code ctx}'s module, turning every failure into a {@link QueryException}. */
    private <T> T guarded(EvalContext ctx, Work<T> work) throws QueryException {
        if (ctx == null || ctx.module() == null) throw new QueryException(0, text.length(), "no module loaded");
        try {
            return work.run();
        } catch (QueryCancelled c) {
            throw new QueryException(0, text.length(), "query cancelled");
        } catch (FieldFailure f) {
            throw new QueryException(0, text.length(), "field '" + f.field + "' failed: " + f.getMessage());
        } catch (TilingModel.TilingFailure f) {
            throw new QueryException(0, text.length(), f.getMessage());
        } catch (ArithmeticException e) {
            throw new QueryException(0, text.length(), "numeric overflow while running the query");
        } catch (RuntimeException | StackOverflowError e) {
            throw new QueryException(0, text.length(), "internal error running the query: " + e);
        }
    }

    /**
     * Whether this query reads the Used values section (for the entity's rows or a field it names).
     * A caller reads it first ({@link bufq.model.UsedValues.Handle#read}) to show the read's progress
     * and let it be cancelled; {@link #run} reads it on first use otherwise.
     */
    public boolean readsUsedValues() { return readsUsedValues; }

    private static boolean readsUsedValues(Ast.Query q, Catalog c) {
        String entity = q.entity().text();
        if (c.readsUsedValues(entity, null)) return true;
        List<String> fields = new ArrayList<>();
        fields(q.where(), fields);
        for (Ast.Name n : q.groupBy()) fields.add(n.text());
        for (Ast.Item i : q.show()) fields(i.expr(), fields);
        for (Ast.OrderKey k : q.orderBy()) fields(k.expr(), fields);
        if (q.show().isEmpty()) fields.addAll(c.defaultColumns(entity));
        for (String f : fields) if (c.readsUsedValues(entity, f)) return true;
        return false;
    }

    /** The names of the fields {@code e} reads (an alias in {@code order by} is no field: it needs nothing). */
    private static void fields(Ast.Expr e, List<String> out) {
        if (e instanceof Ast.Field f) out.add(f.name().text());
        else if (e instanceof Ast.And a) a.terms().forEach(t -> fields(t, out));
        else if (e instanceof Ast.Or o) o.terms().forEach(t -> fields(t, out));
        else if (e instanceof Ast.Not n) fields(n.operand(), out);
        else if (e instanceof Ast.Compare c) { fields(c.left(), out); fields(c.right(), out); }
        else if (e instanceof Ast.Match m) fields(m.left(), out);
        else if (e instanceof Ast.In in) { fields(in.left(), out); in.items().forEach(t -> fields(t, out)); }
        else if (e instanceof Ast.IsNull n) fields(n.operand(), out);
        else if (e instanceof Ast.Call call) call.args().forEach(t -> fields(t, out));
        else if (e instanceof Ast.Arith a) { fields(a.left(), out); fields(a.right(), out); }
        // Live and Literal read no field.
    }

    public String text() { return text; }
    /** The parsed tree (for printing and tools). */
    public Ast.Query ast() { return ast; }
    /** The entity queried, as the catalog names it (lowercase, whatever case was typed). */
    public String entity() { return ast.entity().text().toLowerCase(Locale.ROOT); }

    /** The result's columns, known before running. */
    public List<Column> columns() {
        return plan.cols().subList(0, plan.visible()).stream().map(c -> new Column(c.name(), c.type())).toList();
    }

    @Override public String toString() { return text; }
}
