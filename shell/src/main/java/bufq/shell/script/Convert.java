package bufq.shell.script;

import bufq.format.JsonFormatter;
import bufq.table.Holding;
import bufq.units.PrintedSize;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;
import org.graalvm.polyglot.proxy.ProxyExecutable;
import org.graalvm.polyglot.proxy.ProxyObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Cell values between the query engine's types (Long, Double, String, Boolean, List) and JavaScript. */
final class Convert {
    private Convert() {}

    /** A Java cell as a JavaScript value: lists become read-only arrays, everything else passes as is. */
    static Object toJs(Object v) {
        if (v instanceof List<?> l) return new ReadOnlyArray(l.size(), i -> toJs(l.get(i)));
        if (v instanceof Integer i) return i.longValue();
        if (v instanceof PrintedSize p) {
            // as json writes it: the number when exact, else {printed, low, high}
            if (p.isExact()) return p.low();
            return new ReadOnlyMap(fields("printed", p.text(), "low", p.low(), "high", p.high()));
        }
        if (v instanceof Holding h) return new ReadOnlyMap(fields("name", h.name(), "bytes", h.bytes()));
        return v;
    }

    /** Key, value, key, value ... in order: a cell's parts as a script reads them ({@code size.low}). */
    private static Map<String, Object> fields(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    /** How deep arrays in a script's result may nest; deeper (or an array that contains itself) is refused. */
    static final int MAX_ARRAY_DEPTH = 64;

    /**
     * A script's result as a Java cell: null, Boolean, Long (integral numbers), Double, String or
     * List. Fails with a plain message on a result no cell can hold: a BigInt beyond a double, or
     * arrays nested deeper than {@link #MAX_ARRAY_DEPTH} (as an array that contains itself is).
     */
    static Object fromJs(Value v) {
        return fromJs(v, 0);
    }

    private static Object fromJs(Value v, int depth) {
        if (v == null || v.isNull()) return null;
        if (v.isBoolean()) return v.asBoolean();
        if (v.isNumber()) {
            if (v.fitsInLong()) return v.asLong();
            if (v.fitsInDouble()) return v.asDouble();
            throw new IllegalArgumentException("returned a number too large for a double (a BigInt?): use Number(x) to round it");
        }
        if (v.isString()) return v.asString();
        if (v.hasArrayElements()) {
            if (depth >= MAX_ARRAY_DEPTH)
                throw new IllegalArgumentException("returned arrays nested more than " + MAX_ARRAY_DEPTH
                        + " deep, or an array that contains itself");
            long n = Math.min(v.getArraySize(), 1_000_000);
            List<Object> out = new ArrayList<>((int) n);
            for (long i = 0; i < n; i++) out.add(fromJs(v.getArrayElement(i), depth + 1));
            return out;
        }
        return v.toString();
    }

    /** How {@code print} and the {@code js} command show a value: strings raw, the rest as JavaScript shows it. */
    static String display(Value v) {
        if (v == null) return "undefined";
        if (v.isString()) return v.asString();
        String s = v.toString();
        // GraalJS writes arrays as "(3)[1, 2, 3]"; show them as JavaScript source would.
        if (v.hasArrayElements() && !v.isProxyObject() && s.matches("(?s)\\(\\d+\\)\\[.*")) s = s.substring(s.indexOf('['));
        return s.length() > 100_000 ? s.substring(0, 100_000) + "..." : s;
    }

    /**
     * A script's value as JSON, for the json format: objects and rows by their keys, arrays (a
     * query's rows too) as arrays, undefined, functions and non-finite numbers as null, 64 levels
     * at most (deeper, or a cycle, is null). At most {@code 1_000_000} elements in all.
     */
    static String json(Value v) {
        StringBuilder b = new StringBuilder();
        json(v, 0, b, new int[] {1_000_000});
        return b.toString();
    }

    private static void json(Value v, int depth, StringBuilder b, int[] budget) {
        if (--budget[0] < 0 || depth > 64 || v == null || v.isNull() || v.canExecute()) {
            b.append("null");
        } else if (v.isBoolean()) {
            b.append(v.asBoolean());
        } else if (v.isNumber()) {
            if (v.fitsInLong()) b.append(v.asLong());
            else {
                double d = v.asDouble();
                b.append(Double.isFinite(d) ? Double.toString(d) : "null");
            }
        } else if (v.isString()) {
            JsonFormatter.string(v.asString(), b);
        } else if (v.hasArrayElements()) {
            b.append('[');
            for (long i = 0; i < v.getArraySize() && budget[0] > 0; i++) {
                if (i > 0) b.append(", ");
                json(v.getArrayElement(i), depth + 1, b, budget);
            }
            b.append(']');
        } else if (v.hasMembers()) {
            b.append('{');
            boolean first = true;
            for (String k : v.getMemberKeys()) {
                Value m = v.getMember(k);
                if (m != null && m.canExecute()) continue;  // methods are not data
                if (!first) b.append(", ");
                first = false;
                JsonFormatter.string(k, b);
                b.append(": ");
                json(m, depth + 1, b, budget);
            }
            b.append('}');
        } else {
            JsonFormatter.string(display(v), b);
        }
    }

    /** A Java-side value as JavaScript source would write it (strings quoted, lists bracketed). */
    static String show(Object v) {
        if (v == null) return "null";
        if (v instanceof String s) return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
        if (v instanceof ProxyExecutable) return "[function]";
        return v.toString();
    }

    /** Read-only object: writes and deletes fail with a TypeError in the script. */
    abstract static class ReadOnly implements ProxyObject {
        /** Shown by {@code js} and {@code print}: {@code {id: 11, label: "add.3", ...}}. */
        @Override public String toString() {
            Object keys = getMemberKeys();
            if (!(keys instanceof ProxyArray a)) return "{}";
            StringBuilder b = new StringBuilder("{");
            for (long i = 0; i < a.getSize(); i++) {
                String k = String.valueOf(a.get(i));
                if (i > 0) b.append(", ");
                b.append(k).append(": ").append(show(getMember(k)));
                if (b.length() > 4000) return b.append(", ...}").toString();
            }
            return b.append('}').toString();
        }

        @Override public void putMember(String key, Value value) {
            throw ReadOnlyError.of(readOnly("set", key));
        }

        @Override public boolean removeMember(String key) {
            throw ReadOnlyError.of(readOnly("delete", key));
        }

        /** What a script that tries to {@code set} or {@code delete} member {@code key} is told. */
        String readOnly(String verb, String key) {
            return "cannot " + verb + " '" + key + "': bufq objects and arrays are read-only";
        }
    }

    /** A fixed map as a read-only object. */
    static final class ReadOnlyMap extends ReadOnly {
        private final Map<String, Object> m;

        ReadOnlyMap(Map<String, Object> m) { this.m = m; }

        @Override public Object getMember(String key) { return m.get(key); }
        @Override public Object getMemberKeys() { return ProxyArray.fromArray(m.keySet().toArray()); }
        @Override public boolean hasMember(String key) { return m.containsKey(key); }
    }

    /** A read-only array whose elements are made on access, so a million rows cost nothing until read. */
    static final class ReadOnlyArray implements ProxyArray {
        interface Element { Object get(int i); }

        private final int size;
        private final Element element;

        ReadOnlyArray(int size, Element element) {
            this.size = size;
            this.element = element;
        }

        @Override public Object get(long index) {
            if (index < 0 || index >= size) throw new ArrayIndexOutOfBoundsException("index " + index + " outside 0.." + (size - 1));
            return element.get((int) index);
        }

        @Override public void set(long index, Value value) {
            throw ReadOnlyError.of("cannot set element " + index + ": bufq objects and arrays are read-only");
        }

        @Override public boolean remove(long index) {
            throw ReadOnlyError.of("cannot delete element " + index + ": bufq objects and arrays are read-only");
        }

        @Override public long getSize() { return size; }

        @Override public String toString() {
            StringBuilder b = new StringBuilder("[");
            for (int i = 0; i < size; i++) {
                if (i > 0) b.append(", ");
                if (i == 20 || b.length() > 4000) return b.append("... ").append(size - i).append(" more]").toString();
                b.append(show(element.get(i)));
            }
            return b.append(']').toString();
        }
    }
}
