package bufq.eval;

import bufq.lang.Ast;
import bufq.table.ColumnType;
import java.util.List;
import com.google.re2j.Pattern;

/**
 * A checked query ready to run: closures over the catalog's getters, column layout and sort keys.
 * Immutable; everything that depends on the module (instruction times, peak) is resolved per run.
 */
record Plan(Entity entity, Pred where, int indexSlot, List<LiveSlot> slots, boolean aggregated,
            List<Getter> groupKeys, List<Col> cols, int visible, List<Sort> sort, long limit, List<RegexHint> regexHints) {

    /** A compiled condition. */
    interface Pred {
        boolean test(Object row, Run run);
    }

    /** Per-run state: the context and the resolved {@code [from, to]} of each liveness slot. */
    record Run(EvalContext ctx, int[] from, int[] to) {}

    /** One {@code live at}/{@code live during} in the query, resolved to steps when the query runs. */
    record LiveSlot(Ast.Time from, Ast.Time to, boolean during) {}

    enum AggKind { COUNT, SUM, MIN, MAX, AVG }

    /** An aggregate over a getter ({@code null} for count). */
    record Agg(AggKind kind, Getter arg, ColumnType argType) {}

    /**
     * An output column: a row getter (plain queries), a group-key position, or an aggregate.
     * Columns past {@code visible} exist only to sort by and are dropped from the result.
     */
    record Col(String name, ColumnType type, Getter getter, int keyIndex, Agg agg) {}

    record Sort(int column, boolean desc) {}

    /**
     * A {@code field ~ "..."} whose pattern has regex metacharacters: when a query finds nothing,
     * the executor checks whether the pattern's text, read literally, would have matched
     * ({@code ~ "jvp()/div"}, where {@code ()} is an empty group, not parentheses).
     */
    record RegexHint(String field, Pattern pattern, Getter getter) {}
}
