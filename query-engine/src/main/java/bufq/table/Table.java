package bufq.table;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.IntFunction;

/**
 * An immutable typed result table. Cells hold {@code Long}, {@code Double}, {@code String},
 * {@code Boolean}, {@code List} or {@code null}, as the column type says.
 *
 * @param title optional caption (e.g. the part of a multi-table report), may be null
 * @param notes lines printed under the table (e.g. "3 more rows"), never data
 * @param key   the table's name in data formats (a json object of several tables, ndjson's {@code table},
 *              a csv section): every producer gives one, the same whatever the title's wording or the
 *              module ({@code values_live_at_step}, {@code result} for a query's), so never null
 */
public record Table(String title, List<Column> columns, List<List<Object>> rows, List<String> notes, String key)
        implements Output {
    public Table {
        if (key == null || key.isBlank())
            throw new IllegalArgumentException("a table needs a key, its name in json" + (title == null ? "" : ": '" + title + "' has none"));
        columns = List.copyOf(columns);
        notes = List.copyOf(notes);
        if (rows instanceof LazyRows l) {
            // Computed when read, and immutable already.
            if (l.width != columns.size())
                throw new IllegalArgumentException("rows have " + l.width + " cells, table has " + columns.size() + " columns");
        } else {
            List<List<Object>> copy = new ArrayList<>(rows.size());
            for (List<Object> r : rows) {
                if (r.size() != columns.size())
                    throw new IllegalArgumentException("row has " + r.size() + " cells, table has " + columns.size() + " columns");
                // Rows are kept as immutable arrays: one copy per row, and none when a table is
                // re-made from another (withNote, limit) or a row was handed over with Builder.ownedRow.
                copy.add(r instanceof Row ? r : new Row(r.toArray()));
            }
            rows = Collections.unmodifiableList(copy);
        }
    }

    /**
     * A table whose {@code size} rows are computed when read: {@code row.apply(i)} makes row
     * {@code i}'s cells, a fresh array, each time it is read (the last one read is kept, so a
     * formatter reading a row cell by cell computes it once). A query result of 600,000 rows of
     * which the shell shows 200 then computes 200. {@code row} must be pure and cheap, and must not
     * call back into a script: a script's code runs only inside the guarded calls of the query.
     */
    public static Table lazy(String title, String key, List<Column> columns, int size, IntFunction<Object[]> row,
                             List<String> notes) {
        return new Table(title, columns, new LazyRows(columns.size(), size, row), notes, key);
    }

    public int width() { return columns.size(); }

    /** Whether rows are computed when read ({@link #lazy}) rather than held. */
    public boolean computedOnRead() { return rows instanceof LazyRows; }
    public int size() { return rows.size(); }
    public Object cell(int row, int col) { return rows.get(row).get(col); }

    /**
     * This table without its columns only json keeps ({@link ColumnType#jsonOnly}: notes and keys;
     * itself when it has none): what every format but json prints.
     */
    public Table withoutJsonOnlyColumns() {
        List<Integer> keep = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) if (!columns.get(c).type().jsonOnly()) keep.add(c);
        if (keep.size() == columns.size()) return this;
        List<Column> cols = new ArrayList<>();
        for (int c : keep) cols.add(columns.get(c));
        List<List<Object>> kept = new ArrayList<>(rows.size());
        for (List<Object> r : rows) {
            Object[] cells = new Object[keep.size()];
            for (int i = 0; i < cells.length; i++) cells[i] = r.get(keep.get(i));
            kept.add(Arrays.asList(cells));
        }
        return new Table(title, cols, kept, notes, key);
    }

    /** Index of the column with this name, or -1. */
    public int columnIndex(String name) {
        for (int i = 0; i < columns.size(); i++) if (columns.get(i).name().equals(name)) return i;
        return -1;
    }

    public Table withTitle(String t) { return new Table(t, columns, rows, notes, key); }

    public Table withNote(String note) {
        List<String> n = new ArrayList<>(notes);
        n.add(note);
        return new Table(title, columns, rows, n, key);
    }

    /** The first {@code max} rows, with a note saying how many were left out. */
    public Table limit(int max) {
        if (max < 0 || rows.size() <= max) return this;
        int more = rows.size() - max;
        return new Table(title, columns, rows.subList(0, max), notes, key)
                .withNote(more + " more row" + (more == 1 ? "" : "s") + " (set maxrows to see more)");
    }

    public static Builder builder() { return new Builder(); }

    /** Builds a table column by column, then row by row. */
    public static final class Builder {
        private String title, key;
        private final List<Column> columns = new ArrayList<>();
        private final ArrayList<List<Object>> rows = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();

        public Builder title(String t) { this.title = t; return this; }
        /** The table's name in data formats ({@link Table#key}); {@link #build} refuses a table without one. */
        public Builder key(String k) { this.key = k; return this; }
        public Builder column(String name, ColumnType type) { columns.add(new Column(name, type)); return this; }
        /** A detail column: a narrow terminal leaves it out before the others. */
        public Builder optionalColumn(String name, ColumnType type) { columns.add(new Column(name, type, true)); return this; }
        /**
         * A note about the column called {@code column} (added already): printed under the table only
         * while that column is shown, so a narrow terminal that leaves it out leaves out the note.
         */
        public Builder columnNote(String column, String note) {
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).name().equals(column)) {
                    columns.set(i, columns.get(i).withNote(Objects.requireNonNull(note)));
                    return this;
                }
            }
            throw new IllegalArgumentException("no column '" + column + "' to note");
        }
        public Builder row(Object... cells) { rows.add(Arrays.asList(cells)); return this; }
        public Builder row(List<Object> cells) { rows.add(cells); return this; }

        /**
         * Adds a row made of {@code cells} without copying it: the table keeps the array, so the
         * caller must not change it afterwards. For producers of many rows (queries at 1M values).
         */
        public Builder ownedRow(Object[] cells) { rows.add(new Row(cells)); return this; }

        /** Makes room for {@code n} rows at once (no effect on the result): avoids regrowing a list of a million. */
        public Builder expectRows(int n) { rows.ensureCapacity(n); return this; }
        public Builder note(String n) { notes.add(Objects.requireNonNull(n)); return this; }
        public Table build() { return new Table(title, columns, rows, notes, key); }
    }

    /** Rows computed on reading; see {@link #lazy}. */
    private static final class LazyRows extends AbstractList<List<Object>> implements RandomAccess {
        private final int width, size;
        private final IntFunction<Object[]> row;
        private Last last;   // one reference, written whole: a racing reader sees an old row or none, never a mix

        private record Last(int index, Row row) {}

        LazyRows(int width, int size, IntFunction<Object[]> row) {
            this.width = width;
            this.size = size;
            this.row = row;
        }

        @Override public List<Object> get(int i) {
            Objects.checkIndex(i, size);
            Last l = last;
            if (l != null && l.index == i) return l.row;
            Object[] cells = row.apply(i);
            if (cells.length != width) throw new IllegalStateException("row " + i + " has " + cells.length + " cells, expected " + width);
            Row r = new Row(cells);
            last = new Last(i, r);
            return r;
        }

        @Override public int size() { return size; }
    }

    /** An immutable row over an array no one else holds (null cells allowed). */
    private static final class Row extends AbstractList<Object> implements RandomAccess {
        private final Object[] cells;

        Row(Object[] cells) { this.cells = cells; }

        @Override public Object get(int i) { return cells[i]; }
        @Override public int size() { return cells.length; }
        @Override public Object[] toArray() { return Arrays.copyOf(cells, cells.length, Object[].class); }
    }
}
