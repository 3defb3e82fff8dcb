package bufq.shell.command;

import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/** {@code limit N} on a report command: at most N rows a table, as on queries. */
final class RowLimit {
    private RowLimit() {}

    /**
     * {@code outputs} with every table cut to its first {@code limit} rows, in every format (as a
     * query's limit is), a note saying how many more there are; text (a tree, a chart) as it is.
     */
    static List<Output> limited(List<? extends Output> outputs, OptionalInt limit) {
        List<Output> out = new ArrayList<>(outputs.size());
        for (Output o : outputs) {
            if (limit.isPresent() && o instanceof Table t && t.size() > limit.getAsInt()) {
                int n = limit.getAsInt(), more = t.size() - n;
                o = new Table(t.title(), t.columns(), t.rows().subList(0, n), t.notes(), t.key())
                        .withNote(more + " more row" + (more == 1 ? "" : "s") + " (limit " + n + "; a larger limit shows them)");
            }
            out.add(o);
        }
        return out;
    }
}
