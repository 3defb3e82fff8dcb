package bufq.eval;

import bufq.lang.Ast;
import bufq.lang.Diagnostic;
import bufq.lang.QueryException;

import java.util.List;

/**
 * The rows of an entity that a query selects, as model objects, for the commands that act on them:
 * {@code why values where ...} (the user's whole query), {@code fit where COND} (programs) and
 * {@code whatif ... where COND} (values). The one way a command turns text into rows: a condition
 * alone becomes {@code ENTITY where COND} here and nowhere else, and its errors point into the
 * condition as the user wrote it. A selection keeps {@code where}, {@code live}, {@code order by}
 * and {@code limit}; {@code show} is ignored, and grouping or aggregates are refused. Immutable.
 */
public final class Selection {
    private final String text;
    /** Its tree, to check again against a changed catalog; null when it does not parse. */
    private final Ast.Query ast;
    /** The catalog it was checked against; null for a query compiled elsewhere ({@link #of}). */
    private final Catalog catalog;
    private final Query query;
    /** Why it does not compile (its span in the caller's text), or null. */
    private final QueryException error;
    private final boolean parsed;
    /** Where the caller's text starts in the query compiled, and where that is in the caller's statement. */
    private final int prefix, offset;

    private Selection(String text, Ast.Query ast, Catalog catalog, Query query, QueryException error, int prefix, int offset) {
        this.text = text;
        this.ast = ast;
        this.catalog = catalog;
        this.query = query;
        this.error = error;
        this.parsed = ast != null;
        this.prefix = prefix;
        this.offset = offset;
    }

    /** The rows {@code q}, a query the user wrote whole, selects; its spans are its own. */
    public static Selection of(Query q) {
        return new Selection(q.text(), q.ast(), null, q, null, 0, 0);
    }

    /**
     * The rows of {@code entity} that {@code condition} keeps (it may go on with {@code order by} and
     * {@code limit}). Never throws: a condition that does not compile fails {@link #rows}, its span
     * moved to {@code offset}, where the condition starts in the caller's statement.
     */
    public static Selection where(String entity, String condition, int offset, Catalog catalog) {
        String text = entity + " where " + condition;
        int prefix = text.length() - condition.length();
        try {
            return checked(text, Query.parse(text), catalog, prefix, offset);
        } catch (QueryException e) {
            return new Selection(text, null, catalog, null, moved(e, prefix, offset), prefix, offset);
        }
    }

    private static Selection checked(String text, Ast.Query ast, Catalog catalog, int prefix, int offset) {
        try {
            return new Selection(text, ast, catalog, Query.check(text, ast, catalog), null, prefix, offset);
        } catch (QueryException e) {
            return new Selection(text, ast, catalog, null, moved(e, prefix, offset), prefix, offset);
        }
    }

    /**
     * This selection against {@code now}: itself while that is the catalog it was checked against
     * (and for a syntax error, or a query compiled elsewhere), else checked again from its tree,
     * never parsed again: a script may have defined a field it names since.
     */
    public Selection against(Catalog now) {
        return ast == null || catalog == null || now == catalog ? this : checked(text, ast, now, prefix, offset);
    }

    /** The dump parts its rows and conditions read; none when it does not compile (running it fails first). */
    public boolean readsUsedValues() { return query != null && query.readsUsedValues(); }

    /**
     * Whether it parses but does not check against the catalog it was compiled with: it may name a
     * field a script has yet to define. False when it compiles, and for a syntax error.
     */
    public boolean unresolved() { return query == null && parsed; }

    /**
     * The rows selected in {@code ctx}'s module, in the query's order. Fails as {@link Query#select}
     * does, and first with the compile error; spans are in the caller's text.
     */
    public List<Object> rows(EvalContext ctx) throws QueryException {
        if (error != null) throw error;
        try {
            return query.select(ctx);
        } catch (QueryException e) {
            throw moved(e, prefix, offset);
        }
    }

    /** The query this selection compiles, as compiled ({@code values where COND} for a condition). */
    public String text() { return text; }

    /** {@code e} with its span moved from the compiled query to the caller's text; as it is for a whole query. */
    private static QueryException moved(QueryException e, int prefix, int offset) {
        if (prefix == 0 && offset == 0) return e;
        Diagnostic d = e.diagnostic();
        int shift = offset - prefix;
        int s = Math.max(offset, d.start() + shift), t = Math.max(s + 1, d.end() + shift);
        return new QueryException(new Diagnostic(s, t, d.message(), d.suggestions()));
    }
}
