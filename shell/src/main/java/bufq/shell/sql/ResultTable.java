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

/**
 * A DuckDB result as a bufq table, so it prints through bufq's formats: whole numbers as INT, other
 * numbers as FLOAT, lists as LIST, everything else as its text; a column named as one of bufq's
 * byte fields ({@code size}, {@code needs_bytes}, ...) or ending in {@code _bytes} is BYTES, shown as
 * bytes are ({@code 1.5MiB} in a table, the number in csv and json).
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

    static Table of(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        ColumnType[] types = new ColumnType[n];
        Table.Builder b = Table.builder();
        for (int i = 0; i < n; i++) {
            String name = md.getColumnLabel(i + 1);
            types[i] = type(md.getColumnType(i + 1), md.getColumnTypeName(i + 1), name);
            b.column(name, types[i]);
        }
        while (rs.next()) {
            Object[] row = new Object[n];
            for (int i = 0; i < n; i++) row[i] = cell(rs.getObject(i + 1), types[i]);
            b.ownedRow(row);
        }
        return b.build();
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
            default -> v.toString();
        };
    }

    /** A whole number as a Long; one past a long's range (a HUGEINT sum) as a Double. */
    private static Object whole(Object v) {
        if (v instanceof BigInteger x) return x.bitLength() < 64 ? (Object) x.longValue() : x.doubleValue();
        if (v instanceof BigDecimal x) return x.longValue();
        return v instanceof Number x ? (Object) x.longValue() : v.toString();
    }

    private static List<Object> list(Object v) throws SQLException {
        Object[] items = v instanceof Array a ? (Object[]) a.getArray() : v instanceof Object[] o ? o : new Object[] {v.toString()};
        List<Object> out = new ArrayList<>(Arrays.asList(items));
        for (int i = 0; i < out.size(); i++) {
            Object x = out.get(i);
            if (x instanceof BigInteger || x instanceof Integer || x instanceof Short || x instanceof Byte) out.set(i, ((Number) x).longValue());
            else if (x != null && !(x instanceof Long || x instanceof Double || x instanceof Boolean)) out.set(i, x.toString());
        }
        return out;
    }
}
