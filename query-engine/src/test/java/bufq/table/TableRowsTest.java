package bufq.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows handed over with ownedRow behave like copied rows: immutable, equal, null cells allowed. */
class TableRowsTest {
    @Test
    void ownedRowsEqualCopiedRows() {
        Object[] cells = {1L, null, "x"};
        Table owned = Table.builder().key("result").column("a", ColumnType.INT).column("b", ColumnType.STRING)
                .column("c", ColumnType.STRING).ownedRow(cells).build();
        Table copied = Table.builder().key("result").column("a", ColumnType.INT).column("b", ColumnType.STRING)
                .column("c", ColumnType.STRING).row(1L, null, "x").build();
        assertEquals(copied, owned);
        assertEquals(copied.rows().hashCode(), owned.rows().hashCode());
        assertEquals(copied.rows().toString(), owned.rows().toString());
        assertEquals(Arrays.asList(1L, null, "x"), owned.rows().get(0));
        assertThrows(UnsupportedOperationException.class, () -> owned.rows().get(0).set(0, 2L));
        assertThrows(UnsupportedOperationException.class, () -> copied.rows().get(0).add(2L));
        Object[] out = owned.rows().get(0).toArray();
        out[0] = 9L;   // a copy
        assertEquals(1L, owned.cell(0, 0));
    }

    @Test
    void copiedRowsDoNotFollowTheCallersList() {
        List<Object> cells = new ArrayList<>(List.of(1L, "a"));
        Table t = Table.builder().key("result").column("a", ColumnType.INT).column("b", ColumnType.STRING).row(cells).build();
        cells.set(0, 5L);
        assertEquals(1L, t.cell(0, 0));
    }

    @Test
    void remadeTablesShareRows() {
        Table t = Table.builder().key("result").column("a", ColumnType.INT).row(1L).row(2L).row(3L).build();
        Table n = t.withNote("note");
        assertSame(t.rows().get(1), n.rows().get(1));
        assertEquals(List.of(List.of(1L), List.of(2L)), t.limit(2).rows());
        assertThrows(IllegalArgumentException.class,
                () -> Table.builder().key("result").column("a", ColumnType.INT).ownedRow(new Object[] {1L, 2L}).build());
    }

    /** A lazy table computes only the rows read, each once per pass, and equals the same table held. */
    @Test
    void lazyRowsAreComputedWhenRead() {
        int[] made = new int[1];
        List<Column> cols = List.of(new Column("i", ColumnType.INT), new Column("sq", ColumnType.INT));
        Table lazy = Table.lazy(null, "result", cols, 600_000, i -> {
            made[0]++;
            return new Object[] {(long) i, (long) i * i};
        }, List.of("a note"));
        assertEquals(0, made[0]);
        assertEquals(600_000, lazy.size());
        assertEquals(true, lazy.computedOnRead());
        Table shown = lazy.limit(200);
        assertEquals(200, made[0], "limit reads only the rows it keeps");
        assertEquals(List.of("a note", "599800 more rows (set maxrows to see more)"), shown.notes());
        made[0] = 0;
        for (int r = 0; r < 3; r++) for (int c = 0; c < 2; c++) lazy.cell(r, c);
        assertEquals(3, made[0], "a row read cell by cell is computed once");
        assertEquals(true, lazy.withNote("x").computedOnRead());
        Table.Builder b = Table.builder().key("result").column("i", ColumnType.INT).column("sq", ColumnType.INT).note("a note");
        for (long i = 0; i < 5; i++) b.row(i, i * i);
        assertEquals(b.build(), Table.lazy(null, "result", cols, 5, i -> new Object[] {(long) i, (long) i * i}, List.of("a note")));
        assertThrows(IndexOutOfBoundsException.class, () -> lazy.cell(600_000, 0));
        assertThrows(UnsupportedOperationException.class, () -> lazy.rows().get(0).set(0, 1L));
        Table wrong = Table.lazy(null, "result", cols, 1, i -> new Object[1], List.of());
        assertThrows(IllegalStateException.class, () -> wrong.cell(0, 0));
    }
}
