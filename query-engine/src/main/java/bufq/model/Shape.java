package bufq.model;

import java.util.Arrays;
import java.util.List;

/**
 * A parsed XLA shape such as {@code f32[16,64]{1,0:T(8,128)S(1)}} or a tuple {@code (u32[2], u32[2])}.
 *
 * <p>Immutable. The reader interns shapes by text, so equal texts share one instance. Dynamic
 * dimensions ({@code [<=8]}) are stored at their bound; {@code [?]} as 0 with {@link #dynamic}
 * set. {@link #minorToMajor} is {@code null} when no layout was printed.
 */
public final class Shape {
    /** Bits per element of each XLA primitive type by its printed name; 0 for non-arrays. */
    public static int elementBits(String dtype) {
        return switch (dtype) {
            case "pred", "s8", "u8", "f8e5m2", "f8e4m3fn", "f8e4m3b11fnuz", "f8e5m2fnuz", "f8e4m3fnuz",
                 "f8e4m3", "f8e3m4", "f8e8m0fnu" -> 8;
            case "s16", "u16", "f16", "bf16" -> 16;
            case "s32", "u32", "f32" -> 32;
            case "s64", "u64", "f64", "c64" -> 64;
            case "c128" -> 128;
            case "s4", "u4", "f4e2m1fn" -> 4;
            case "s2", "u2" -> 2;
            case "s1", "u1" -> 1;
            default -> 0;
        };
    }


    private final String text;
    private final String dtype;
    private final long[] dims;
    private final boolean dynamic;
    private final int[] minorToMajor;
    private final List<long[]> tiles;
    private final int elementSizeBits;
    private final int memorySpace;
    private final List<Shape> tupleElements;
    // Sizes computed once: every value, step and query asks for them; -1 when they overflow (the
    // methods then throw as they would have).
    private final long logical;
    private final long padded;

    public Shape(String text, String dtype, long[] dims, boolean dynamic, int[] minorToMajor,
                 List<long[]> tiles, int elementSizeBits, int memorySpace, List<Shape> tupleElements) {
        this.text = text;
        this.dtype = dtype;
        this.dims = dims;
        this.dynamic = dynamic;
        this.minorToMajor = minorToMajor;
        this.tiles = List.copyOf(tiles);
        this.elementSizeBits = elementSizeBits;
        this.memorySpace = memorySpace;
        this.tupleElements = List.copyOf(tupleElements);
        long l, p;
        try {
            l = computeLogicalBytes();
            p = computePaddedBytes();
        } catch (ArithmeticException e) {
            l = p = -1;
        }
        this.logical = l;
        this.padded = p;
    }

    /** A copy of {@code s} whose logical size is {@code logical} (a what-if's scaled value), the rest as {@code s}. */
    private Shape(Shape s, long logical) {
        this.text = s.text;
        this.dtype = s.dtype;
        this.dims = s.dims;
        this.dynamic = s.dynamic;
        this.minorToMajor = s.minorToMajor;
        this.tiles = s.tiles;
        this.elementSizeBits = s.elementSizeBits;
        this.memorySpace = s.memorySpace;
        this.tupleElements = s.tupleElements;
        this.logical = logical;
        this.padded = s.padded;
    }

    /**
     * This shape weighing {@code logical} bytes: what {@code whatif scale} makes of a value, whose
     * text and layout stay while its bytes shrink (as a bf16 copy of an f32 array would).
     */
    public Shape withLogicalBytes(long logical) {
        return new Shape(this, Math.max(0, logical));
    }

    /** The text as printed in the dump. */
    public String text() { return text; }

    /**
     * A shape's text without its layout: {@code f32[8,128]{1,0:T(8,128)}} is {@code f32[8,128]}, as an
     * allocation's parameter shape and an error message print it; a tuple loses its elements' layouts.
     */
    public static String withoutLayout(String shape) {
        String s = shape.strip();
        if (s.startsWith("(")) return s.replaceAll("\\{[^{}]*\\}", "");
        int brace = s.indexOf('{');
        return brace < 0 ? s : s.substring(0, brace);
    }
    /** Element type ({@code f32}, {@code bf16}, ...), {@code tuple}, {@code token} or {@code opaque}. */
    public String dtype() { return dtype; }
    public long[] dims() { return dims.clone(); }
    public int rank() { return dims.length; }
    public long dim(int i) { return dims[i]; }
    public boolean dynamic() { return dynamic; }
    /** Layout order, minor first; null when the shape carries no layout. */
    public int[] minorToMajor() { return minorToMajor == null ? null : minorToMajor.clone(); }
    public boolean hasLayout() { return minorToMajor != null; }
    /** Tiles from {@code T(..)(..)}, outermost first; empty when untiled. */
    public List<long[]> tiles() { return tiles; }
    /** {@code E(bits)} override, 0 when absent. */
    public int elementSizeBits() { return elementSizeBits; }
    /** {@code S(n)}, 0 when absent. */
    public int memorySpace() { return memorySpace; }
    public List<Shape> tupleElements() { return tupleElements; }
    public boolean isTuple() { return "tuple".equals(dtype); }
    public boolean isArray() { return elementBits(dtype) > 0; }

    /** Number of elements of an array shape (1 for scalars). */
    public long elementCount() {
        long n = 1;
        for (long d : dims) n = Math.multiplyExact(n, d);
        return n;
    }

    /** Bits per element: {@code E(bits)} when given, else the primitive width. */
    public int bitsPerElement() {
        return elementSizeBits > 0 ? elementSizeBits : elementBits(dtype);
    }

    /**
     * Logical size as XLA's {@code ShapeUtil::ByteSizeOf(shape, 8)}: elements times width with no
     * padding; a tuple is its index table (8 bytes per element); token 0; opaque 8.
     */
    public long logicalBytes() {
        return logical >= 0 ? logical : computeLogicalBytes();
    }

    private long computeLogicalBytes() {
        if (isTuple()) return 8L * tupleElements.size();
        if ("token".equals(dtype)) return 0;
        if (!isArray()) return 8;
        return bytesOf(elementCount());
    }

    /**
     * Bytes of {@code n} elements as XLA counts them: packed ({@code ceil(n*E/8)}) when the layout
     * carries {@code E(bits)}, else whole bytes per element ({@code s4}, {@code pred} take one byte each).
     */
    private long bytesOf(long n) {
        if (elementSizeBits > 0) {
            long bits = Math.multiplyExact(n, (long) elementSizeBits);
            return bits / 8 + (bits % 8 == 0 ? 0 : 1);
        }
        return Math.multiplyExact(n, (long) ((elementBits(dtype) + 7) / 8));
    }

    /**
     * Padded size under the TPU tiling rule (FORMAT.md): only the first tile counts; tile dim
     * {@code k-1-i} pads array dim {@code minorToMajor[i]} to a multiple; missing dims count as 1.
     * Without tiles this is the logical size.
     */
    public long paddedBytes() {
        return padded >= 0 ? padded : computePaddedBytes();
    }

    private long computePaddedBytes() {
        if (!isArray() || tiles.isEmpty() || minorToMajor == null) return computeLogicalBytes();
        long[] tile = tiles.get(0);
        int k = tile.length;
        long elements = 1;
        // Walk the tile from its minor end; positions beyond the rank are size-1 dims.
        int covered = Math.max(k, 0);
        for (int i = 0; i < covered; i++) {
            long t = tile[k - 1 - i];
            long d = i < minorToMajor.length ? dims[minorToMajor[i]] : 1;
            elements = Math.multiplyExact(elements, roundUp(d, t));
        }
        for (int i = covered; i < minorToMajor.length; i++) {
            elements = Math.multiplyExact(elements, dims[minorToMajor[i]]);
        }
        return bytesOf(elements);
    }

    private static long roundUp(long d, long t) {
        if (t <= 0) return d;
        return Math.multiplyExact((d + t - 1) / t, t);
    }

    /** {@code [16,64]} as printed, without the element type. */
    public String dimsText() {
        if (!isArray()) return "";
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < dims.length; i++) {
            if (i > 0) b.append(',');
            b.append(dims[i]);
        }
        return b.append(']').toString();
    }

    /** The layout text between braces ({@code 1,0:T(8,128)}), or empty when none. */
    public String layoutText() {
        int open = text.indexOf('{');
        if (isTuple() || open < 0 || !text.endsWith("}")) return "";
        return text.substring(open + 1, text.length() - 1);
    }

    @Override public String toString() { return text; }
    @Override public boolean equals(Object o) { return o instanceof Shape s && s.text.equals(text); }
    @Override public int hashCode() { return text.hashCode(); }

    /** For debugging: the parsed parts. */
    public String describe() {
        return dtype + Arrays.toString(dims) + " m2m=" + Arrays.toString(minorToMajor) + " tiles="
                + tiles.stream().map(Arrays::toString).toList() + " E=" + elementSizeBits + " S=" + memorySpace;
    }
}
