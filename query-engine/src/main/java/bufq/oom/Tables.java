package bufq.oom;

import bufq.model.HloModule;
import bufq.table.Column;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What the tables of {@code oom} share: dropping the details no row has, and the dump's name of a module. */
final class Tables {
    private Tables() {}

    /** {@code t} without its optional columns that are null in every row: what a message does not print. */
    static Table withoutEmptyDetails(Table t) {
        List<Integer> keep = new ArrayList<>();
        for (int c = 0; c < t.width(); c++) {
            boolean empty = t.columns().get(c).optional();
            for (int r = 0; r < t.size() && empty; r++) empty = t.cell(r, c) == null;
            if (!empty) keep.add(c);
        }
        if (keep.size() == t.width()) return t;
        List<Column> cols = new ArrayList<>();
        for (int c : keep) cols.add(t.columns().get(c));
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < t.size(); r++) {
            List<Object> row = new ArrayList<>();
            for (int c : keep) row.add(t.cell(r, c));
            rows.add(row);
        }
        return new Table(t.title(), cols, rows, t.notes());
    }

    /** {@code module_0008.jit__lambda}: how the dump's files name the module (handles may differ), or null. */
    static String dumpName(HloModule m) {
        int n = m.info().number();
        return n < 0 ? null : String.format(Locale.ROOT, "module_%04d.%s", n, m.info().name());
    }
}
