package bufq.eval;

import bufq.table.ColumnType;

import java.util.List;
import java.util.function.Function;

/**
 * The getter of a field a script added: it calls into the script, so a query reads it while it
 * runs (inside the script host's guarded call), never later when its table is printed.
 */
final class ScriptGetter implements Getter {
    private final String name;
    private final ColumnType type;
    private final Function<Object, Object> fn;

    ScriptGetter(String name, ColumnType type, Function<Object, Object> fn) {
        this.name = name;
        this.type = type;
        this.fn = fn;
    }

    @Override public Object get(Object row, EvalContext ctx) {
        Object v;
        try {
            v = fn.apply(row);
        } catch (RuntimeException ex) {
            throw new FieldFailure(name, ex);
        }
        return coerce(v, type);
    }

    /** Widens a script's result to the column type's Java type; null when it does not fit. */
    static Object coerce(Object v, ColumnType type) {
        if (v == null) return null;
        return switch (type) {
            // A double outside long's range would saturate (2^80 shown as 8.0EiB): it does not fit.
            case INT, BYTES -> v instanceof Number n && !(v instanceof Double d && !(d >= -0x1p63 && d < 0x1p63))
                    ? Long.valueOf(n.longValue()) : null;
            case FLOAT, PERCENT -> v instanceof Number n ? Double.valueOf(n.doubleValue()) : null;
            case STRING, NOTE, KEY, STATEMENT -> v instanceof String || v instanceof Character ? v.toString() : null;
            case BOOL -> v instanceof Boolean ? v : null;
            case LIST -> v instanceof List<?> l ? List.copyOf(l.stream().map(x -> x == null ? "null" : x).toList()) : null;
        };
    }
}
