package bufq.dump.proto;

import bufq.model.Shape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns {@code xla.ShapeProto} into bufq's {@link Shape}, with the text XLA prints for it
 * ({@code f32[16,64]{1,0:T(8,128)S(1)}}, tuples as {@code (a, b)}), so a module read from a proto
 * shows and compares the shapes its text dump shows. One instance per module shares equal shapes.
 */
final class Shapes {
    static final int TUPLE = 13;

    /** An {@code xla.LayoutProto}. */
    record Layout(long[] minorToMajor, List<long[]> tiles, long elementSizeBits, long memorySpace) {}

    /**
     * An {@code xla.ShapeProto}: {@code layout} is null when the shape carries none; {@code printed}
     * is the model's shape of it (with layout), made as it is read while its parts are at hand.
     */
    record ShapeP(int elementType, long[] dims, boolean[] dynamic, List<ShapeP> tuple, Layout layout, Shape printed) {}

    /**
     * Shape messages read, by their bytes in the module's proto: a module holds few distinct shapes
     * (the 12-layer transformer's 987 instructions: 12), and a message of the same bytes reads as the
     * same shape, so it is read once. Only one array's spans are kept: the first a reader asked about.
     */
    private SpanTable<ShapeP> read;

    /** The shape read before from the same {@code n} bytes as {@code b[at, at + n)}, or null. */
    ShapeP readBefore(byte[] b, int at, int n) {
        return read == null || read.bytes() != b ? null : read.get(at, n);
    }

    /** Keeps {@code p}, read from {@code b[at, at + n)}, for {@link #readBefore}. */
    void wasRead(byte[] b, int at, int n, ShapeP p) {
        if (read == null) read = new SpanTable<>(b, 64);
        if (read.bytes() == b) read.put(at, n, p);
    }

    /** xla.PrimitiveType numbers to the names XLA prints. */
    private static final String[] TYPES = new String[35];

    static {
        String[] pairs = {"1 pred", "2 s8", "3 s16", "4 s32", "5 s64", "6 u8", "7 u16", "8 u32", "9 u64", "10 f16",
                "11 f32", "12 f64", "13 tuple", "14 opaque", "15 c64", "16 bf16", "17 token", "18 c128", "19 f8e5m2",
                "20 f8e4m3fn", "21 s4", "22 u4", "23 f8e4m3b11fnuz", "24 f8e5m2fnuz", "25 f8e4m3fnuz", "26 s2", "27 u2",
                "28 f8e4m3", "29 f8e3m4", "30 s1", "31 u1", "32 f4e2m1fn", "33 f8e8m0fnu", "34 buffer"};
        for (String p : pairs) {
            int sp = p.indexOf(' ');
            TYPES[Integer.parseInt(p.substring(0, sp))] = p.substring(sp + 1);
        }
    }

    private final Map<String, Shape> shared = new HashMap<>();
    // The same proto shape is asked for again and again (a tuple's elements, each value at an index
    // of it, an instruction and its values): by identity, without printing its text each time.
    private final Map<ShapeP, Shape> withLayoutOf = new IdentityHashMap<>(), bareOf = new IdentityHashMap<>();
    private final Map<ArrayKey, Shape> arrays = new HashMap<>();
    private final Map<TupleKey, Shape> tuples = new HashMap<>();

    /** A tuple by its elements, each this instance's one Shape of its text: compared by identity. */
    private static final class TupleKey {
        private final Shape[] elements;
        private final int hash;

        TupleKey(Shape[] elements) {
            this.elements = elements;
            int h = 1;
            for (Shape e : elements) h = 31 * h + System.identityHashCode(e);
            this.hash = h;
        }

        @Override public int hashCode() { return hash; }

        @Override public boolean equals(Object o) {
            if (!(o instanceof TupleKey k) || k.hash != hash || k.elements.length != elements.length) return false;
            for (int i = 0; i < elements.length; i++) if (k.elements[i] != elements[i]) return false;
            return true;
        }
    }

    /** The element type's printed name, or null for a number XLA does not define. */
    static String typeName(int type) {
        return type > 0 && type < TYPES.length ? TYPES[type] : null;
    }

    /** The shape, with layout as XLA prints it; null for a null proto. */
    Shape shape(ShapeP p) {
        if (p == null) return null;
        return shape(p, true);
    }

    /** The shape without layout ({@code f32[16,64]}), as allocation lines print parameter shapes. */
    Shape bare(ShapeP p) {
        if (p == null) return null;
        return shape(p, false);
    }

    /** The shape of {@code p} (with layout) as it is read: its tuple elements already have theirs. */
    Shape printed(ShapeP p) {
        return make(p, true);
    }

    private Shape shape(ShapeP p, boolean withLayout) {
        if (withLayout && p.printed() != null) return p.printed();
        Map<ShapeP, Shape> seen = withLayout ? withLayoutOf : bareOf;
        Shape s = seen.get(p);
        if (s != null) return s;
        s = make(p, withLayout);
        seen.put(p, s);
        return s;
    }

    private Shape make(ShapeP p, boolean withLayout) {
        if (p.elementType() == TUPLE) {
            // The elements first (each made once, so equal elements are one object), then the tuple
            // by its elements; its text only when it is new. A while loop's state tuple of a hundred
            // elements is the shape of several instructions: printing and hashing its text each
            // time was 7% of a module's load.
            Shape[] elements = new Shape[p.tuple().size()];
            for (int k = 0; k < elements.length; k++) elements[k] = shape(p.tuple().get(k), withLayout);
            TupleKey key = new TupleKey(elements);
            Shape s = tuples.get(key);
            if (s != null) return s;
            StringBuilder b = new StringBuilder().append('(');
            for (int k = 0; k < elements.length; k++) {
                if (k > 0) b.append(", ");
                if (k > 0 && k % 5 == 0) b.append("/*index=").append(k).append("*/");
                b.append(elements[k].text());
            }
            String text = b.append(')').toString();
            s = shared.get(text);
            if (s == null) {
                s = new Shape(text, "tuple", new long[0], false, null, List.of(), 0, 0, List.of(elements));
                shared.put(text, s);
            }
            tuples.put(key, s);
            return s;
        }
        ArrayKey key = new ArrayKey(p, withLayout);
        Shape s = arrays.get(key);
        if (s != null) return s;
        s = makeArray(p, withLayout);
        arrays.put(key, s);
        return s;
    }

    /**
     * An array shape compared by what its text prints (element type, dimensions, dynamic marks and,
     * with layout, the layout): equal shapes of different instructions find their Shape without
     * printing the text again.
     */
    private static final class ArrayKey {
        private final ShapeP p;
        private final boolean withLayout;
        private final int hash;

        ArrayKey(ShapeP p, boolean withLayout) {
            this.p = p;
            this.withLayout = withLayout;
            int h = p.elementType() * 31 + Arrays.hashCode(p.dims());
            h = h * 31 + Arrays.hashCode(p.dynamic());
            Layout l = withLayout ? p.layout() : null;
            if (l != null) {
                h = h * 31 + Arrays.hashCode(l.minorToMajor());
                h = h * 31 + (int) l.elementSizeBits() * 7 + (int) l.memorySpace();
                for (long[] t : l.tiles()) h = h * 31 + Arrays.hashCode(t);
            }
            this.hash = withLayout ? h : ~h;
        }

        @Override public int hashCode() { return hash; }

        @Override public boolean equals(Object o) {
            if (!(o instanceof ArrayKey k) || k.hash != hash || k.withLayout != withLayout) return false;
            ShapeP q = k.p;
            if (q.elementType() != p.elementType() || !Arrays.equals(q.dims(), p.dims()) || !Arrays.equals(q.dynamic(), p.dynamic())) {
                return false;
            }
            if (!withLayout) return true;
            Layout a = p.layout(), b = q.layout();
            if (a == null || b == null) return a == b;
            if (!Arrays.equals(a.minorToMajor(), b.minorToMajor()) || a.elementSizeBits() != b.elementSizeBits()
                    || a.memorySpace() != b.memorySpace() || a.tiles().size() != b.tiles().size()) {
                return false;
            }
            for (int i = 0; i < a.tiles().size(); i++) if (!Arrays.equals(a.tiles().get(i), b.tiles().get(i))) return false;
            return true;
        }
    }

    private Shape makeArray(ShapeP p, boolean withLayout) {
        String text = text(p, withLayout);
        Shape s = shared.get(text);
        if (s != null) return s;
        String dtype = typeName(p.elementType());
        if (dtype == null) dtype = "unknown";
        Layout l = withLayout ? p.layout() : null;
        boolean dynamic = false;
        for (boolean d : p.dynamic()) dynamic |= d;
        int[] m2m = null;
        if (l != null && p.dims().length > 0) {
            m2m = new int[l.minorToMajor().length];
            for (int i = 0; i < m2m.length; i++) m2m[i] = (int) l.minorToMajor()[i];
        }
        List<long[]> tiles = l == null ? List.of() : l.tiles();
        s = new Shape(text, dtype, p.dims().clone(), dynamic, m2m, tiles, l == null ? 0 : (int) l.elementSizeBits(),
                l == null ? 0 : (int) l.memorySpace(), List.of());
        shared.put(text, s);
        return s;
    }

    /** The shape's text as XLA prints it. */
    static String text(ShapeP p, boolean withLayout) {
        StringBuilder b = new StringBuilder();
        append(b, p, withLayout);
        return b.toString();
    }

    private static void append(StringBuilder b, ShapeP p, boolean withLayout) {
        String dtype = typeName(p.elementType());
        if (p.elementType() == TUPLE) {
            b.append('(');
            for (int k = 0; k < p.tuple().size(); k++) {
                if (k > 0) b.append(", ");
                if (k > 0 && k % 5 == 0) b.append("/*index=").append(k).append("*/");
                append(b, p.tuple().get(k), withLayout);
            }
            b.append(')');
            return;
        }
        b.append(dtype == null ? "unknown" : dtype).append('[');
        long[] d = p.dims();
        for (int i = 0; i < d.length; i++) {
            if (i > 0) b.append(',');
            if (i < p.dynamic().length && p.dynamic()[i]) b.append("<=");
            b.append(d[i]);
        }
        b.append(']');
        Layout l = p.layout();
        if (!withLayout || l == null) return;
        StringBuilder extra = new StringBuilder();
        if (!l.tiles().isEmpty()) {
            extra.append('T');
            for (long[] t : l.tiles()) {
                extra.append('(');
                for (int i = 0; i < t.length; i++) {
                    if (i > 0) extra.append(',');
                    extra.append(t[i] == Long.MIN_VALUE ? "*" : String.valueOf(t[i]));
                }
                extra.append(')');
            }
        }
        if (l.elementSizeBits() > 0) extra.append("E(").append(l.elementSizeBits()).append(')');
        if (l.memorySpace() != 0) extra.append("S(").append(l.memorySpace()).append(')');
        if (d.length == 0 && extra.length() == 0) return;   // XLA prints a scalar's default layout as nothing
        b.append('{');
        for (int i = 0; i < l.minorToMajor().length; i++) {
            if (i > 0) b.append(',');
            b.append(l.minorToMajor()[i]);
        }
        if (extra.length() > 0) b.append(':').append(extra);
        b.append('}');
    }
}
