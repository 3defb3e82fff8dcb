package bufq.shell.sql;

import bufq.eval.Catalog;
import bufq.eval.FieldInfo;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * A DuckDB result as a bufq table, so it prints through bufq's formats: whole numbers as INT, other
 * numbers as FLOAT, lists as LIST, everything else as its text; a column named as one of bufq's
 * byte fields ({@code size}, {@code needs_bytes}, ...) or ending in {@code _bytes} is BYTES, shown as
 * bytes are ({@code 1.5MiB} in a table, the number in csv and json). A BLOB is its bytes in hex
 * ({@code \x00\xff}, the first 64, then its size); columns of one name get {@code _2}, {@code _3}
 * after the first, so a json row has one key per column.
 *
 * <p>Rows are read as DuckDB streams them, at most {@link #MAX_CELLS} cells (rows times columns):
 * the rest is not fetched, and the result says so. Ctrl-C and the time limit stop a long fetch.
 */
final class ResultTable {
    private ResultTable() {}

    /** The names of every byte field of the standard catalog. */
    private static final Set<String> BYTE_FIELDS = byteFields();

    private static Set<String> byteFields() {
        Set<String> out = new HashSet<>();
        Catalog c = Catalog.standard();
        for (String e : c.entities()) for (FieldInfo f : c.fields(e)) if (f.type() == ColumnType.BYTES) out.add(f.name());
        return out;
    }

    /** The most cells (rows times columns) of one result held: about 0.5 GB of the heap at most. */
    static final long MAX_CELLS = 5_000_000;

    /** The rows of {@code rs}, at most {@code maxCells} cells, read until {@code stop} says so (Ctrl-C, the time limit). */
    static SqlResult of(ResultSet rs, long maxCells, BooleanSupplier stop) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        ColumnType[] types = new ColumnType[n];
        Table.Builder b = Table.builder().key("result");
        Set<String> names = new HashSet<>();
        for (int i = 0; i < n; i++) {
            String name = md.getColumnLabel(i + 1);
            types[i] = type(md.getColumnType(i + 1), md.getColumnTypeName(i + 1), name);
            String unique = name;
            for (int k = 2; !names.add(unique.toLowerCase(Locale.ROOT)); k++) unique = name + "_" + k;
            b.column(unique, types[i]);
        }
        long maxRows = Math.max(1, maxCells / Math.max(1, n));
        long rows = 0;
        while (rs.next()) {
            if (rows == maxRows) return new SqlResult(b.build(), true);
            if ((++rows & 1023) == 0 && stop.getAsBoolean()) throw new SQLException("cancelled");
            Object[] row = new Object[n];
            for (int i = 0; i < n; i++) row[i] = cell(rs.getObject(i + 1), types[i]);
            b.ownedRow(row);
        }
        return new SqlResult(b.build(), false);
    }

    private static ColumnType type(int sqlType, String typeName, String name) {
        String t = typeName.toUpperCase(Locale.ROOT);
        if (t.endsWith("[]") || t.startsWith("LIST") || sqlType == Types.ARRAY) return ColumnType.LIST;
        boolean whole = switch (sqlType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> true;
            default -> t.equals("HUGEINT") || t.equals("UBIGINT") || t.equals("UINTEGER") || t.equals("USMALLINT")
                    || t.equals("UTINYINT") || t.equals("UHUGEINT");
        };
        String lower = name.toLowerCase(Locale.ROOT);
        boolean bytes = BYTE_FIELDS.contains(lower) || lower.endsWith("_bytes");
        if (whole) return bytes ? ColumnType.BYTES : ColumnType.INT;
        boolean fraction = switch (sqlType) {
            case Types.FLOAT, Types.REAL, Types.DOUBLE, Types.DECIMAL, Types.NUMERIC -> true;
            default -> false;
        };
        if (fraction) return ColumnType.FLOAT;
        if (sqlType == Types.BOOLEAN) return ColumnType.BOOL;
        return ColumnType.STRING;
    }

    private static Object cell(Object v, ColumnType type) throws SQLException {
        if (v == null) return null;
        return switch (type) {
            case INT, BYTES -> whole(v);
            case FLOAT, PERCENT -> v instanceof Number x ? (Object) x.doubleValue() : v.toString();
            case BOOL -> v instanceof Boolean ? v : Boolean.valueOf(v.toString());
            case LIST -> list(v);
            default -> text(v);
        };
    }

    /** A whole number as a Long; one past a long's range (a HUGEINT sum) as a Double. */
    private static Object whole(Object v) {
        if (v instanceof BigInteger x) return x.bitLength() < 64 ? (Object) x.longValue() : x.doubleValue();
        if (v instanceof BigDecimal x) return x.longValue();
        return v instanceof Number x ? (Object) x.longValue() : v.toString();
    }

    /** How many bytes of a BLOB are shown. */
    private static final int BLOB_SHOWN = 64;

    /** A cell as text: a BLOB as hex and its size, never a Java object's name. */
    private static String text(Object v) throws SQLException {
        byte[] bytes = null;
        if (v instanceof byte[] a) bytes = a;
        else if (v instanceof java.sql.Blob blob) bytes = blob.getBytes(1, (int) Math.min(blob.length(), BLOB_SHOWN + 1));
        else if (v instanceof java.nio.ByteBuffer buf) {
            bytes = new byte[Math.min(buf.remaining(), BLOB_SHOWN + 1)];
            buf.duplicate().get(bytes);
        }
        if (bytes == null) return v.toString();
        long size = v instanceof java.sql.Blob blob ? blob.length() : v instanceof java.nio.ByteBuffer buf ? buf.remaining() : bytes.length;
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, BLOB_SHOWN); i++) out.append(String.format("\\x%02x", bytes[i] & 0xff));
        if (size > BLOB_SHOWN) out.append("... (").append(size).append(" bytes)");
        return out.toString();
    }

    private static List<Object> list(Object v) throws SQLException {
        Object[] items = v instanceof Array a ? (Object[]) a.getArray() : v instanceof Object[] o ? o : new Object[] {v.toString()};
        List<Object> out = new ArrayList<>(Arrays.asList(items));
        for (int i = 0; i < out.size(); i++) {
            Object x = out.get(i);
            if (x instanceof BigInteger || x instanceof Integer || x instanceof Short || x instanceof Byte) out.set(i, ((Number) x).longValue());
            else if (x != null && !(x instanceof Long || x instanceof Double || x instanceof Boolean)) out.set(i, text(x));
        }
        return out;
    }
}
