package bufq.analysis.forecast;

import bufq.model.Shape;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How one value's shape follows the size {@code N}: each dimension an affine function
 * {@code (num·N + off) / den} in whole numbers, fitted through two loaded sizes and held to every
 * other; the bytes are the shape's bytes at {@code N} as {@link Shape#paddedBytes()} computes them
 * (element size, packing and tiling included), plus the constant the dump's {@code size=} differs
 * by on every loaded size (0 on an untiled CPU dump). Immutable.
 *
 * @param template the value's shape in the module the forecast is built on
 * @param num      per dimension, the numerator of its slope
 * @param off      per dimension, the numerator of its intercept
 * @param den      per dimension, the common denominator (positive)
 * @param up       per dimension, whether it rounds up, {@code ceil((num·N + off) / den)}: XLA's partial
 *                 reductions hold {@code ceil(B/32)} rows, whole at every {@code B}; else it is whole
 *                 only where the division is exact
 * @param extra    assigned bytes beyond the shape's own, the same at every loaded size
 */
record Law(Shape template, long[] num, long[] off, long[] den, boolean[] up, long extra) {
    /** A shape whose size does not follow {@code N} (a tuple's table, a scalar): its bytes stay. */
    static Law constant(Shape s, long bytes) {
        return new Law(s, new long[0], new long[0], new long[0], new boolean[0], bytes - (s == null ? 0 : s.paddedBytes()));
    }

    /** Whether any dimension changes with {@code N}. */
    boolean varies() {
        for (long a : num) if (a != 0) return true;
        return false;
    }

    /**
     * The law through the shapes {@code shapes} (one per loaded size {@code ns}, same rank), or null
     * with the reason in {@code why[0]} when a dimension does not follow an affine law.
     */
    static Law fit(Shape[] shapes, long[] sizes, long[] ns, String[] why) {
        Shape t = shapes[0];
        int rank = t.rank();
        long[] num = new long[rank], off = new long[rank], den = new long[rank];
        boolean[] up = new boolean[rank];
        // the two sizes farthest apart set the law; the others check it
        int lo = 0, hi = 0;
        for (int k = 1; k < ns.length; k++) {
            if (ns[k] < ns[lo]) lo = k;
            if (ns[k] > ns[hi]) hi = k;
        }
        for (int d = 0; d < rank; d++) {
            long dn = ns[hi] - ns[lo], dd = shapes[hi].dim(d) - shapes[lo].dim(d);
            long a = dd, c = Math.subtractExact(Math.multiplyExact(shapes[lo].dim(d), dn), Math.multiplyExact(dd, ns[lo]));
            long g = gcd(gcd(Math.abs(a), Math.abs(c)), dn);
            num[d] = a / g;
            off[d] = c / g;
            den[d] = dn / g;
            for (int k = 0; k < ns.length; k++) {
                if (Math.multiplyExact(shapes[k].dim(d), den[d]) != Math.addExact(Math.multiplyExact(num[d], ns[k]), off[d])) {
                    why[0] = "dimension " + d + " (" + dims(shapes, d) + " at " + join(ns) + ") is no affine function of the size";
                    return null;
                }
            }
            // (N+16)/32 through 48, 80, 112 is ceil(N/32), whole at every N, as XLA's partial reductions are
            if (den[d] > 1 && off[d] != 0 && num[d] > 0) {
                boolean ceil = true;
                for (int k = 0; k < ns.length && ceil; k++) ceil = ceilDiv(Math.multiplyExact(num[d], ns[k]), den[d]) == shapes[k].dim(d);
                if (ceil) {
                    off[d] = 0;
                    up[d] = true;
                }
            }
        }
        Law law = new Law(t, num, off, den, up, 0);
        long extra = sizes[0] - t.paddedBytes();
        for (int k = 0; k < ns.length; k++) {
            long model = law.shapeAt(ns[k]).paddedBytes();
            if (sizes[k] - model != extra) {
                why[0] = "its assigned size (" + join(sizes) + " B) does not follow its shape's bytes (" + model
                        + " B at " + ns[k] + ") by a constant";
                return null;
            }
        }
        return new Law(t, num, off, den, up, extra);
    }

    private static long ceilDiv(long a, long b) { return -Math.floorDiv(-a, b); }

    /** Whether a dimension rounds up, so the bytes follow no polynomial. */
    private boolean rounds() {
        for (boolean u : up) if (u) return true;
        return false;
    }

    /** The dimension {@code d} at {@code n}, or -1 when it is not a whole number of 0 or more there. */
    long dimAt(int d, long n) {
        long top = Math.addExact(Math.multiplyExact(num[d], n), off[d]);
        if (top < 0) return -1;
        if (up[d]) return ceilDiv(top, den[d]);
        if (top % den[d] != 0) return -1;
        return top / den[d];
    }

    /** The smallest step between sizes at which every dimension is whole (1 for a batch). */
    long period() {
        long p = 1;
        for (int d = 0; d < num.length; d++) {
            if (up[d]) continue;   // whole at every size
            long q = den[d] / gcd(Math.abs(num[d]), den[d]);
            p = Math.multiplyExact(p / gcd(p, q), q);
        }
        return p;
    }

    /** The shape at {@code n}; null when a dimension is not whole there (see {@link #dimAt}). */
    Shape shapeAt(long n) {
        if (template == null || num.length == 0) return template;
        long[] dims = new long[num.length];
        for (int d = 0; d < dims.length; d++) {
            dims[d] = dimAt(d, n);
            if (dims[d] < 0) return null;
        }
        String layout = template.layoutText();
        String text = template.dtype() + dimsText(dims) + (layout.isEmpty() ? "" : "{" + layout + "}");
        return new Shape(text, template.dtype(), dims, false, template.minorToMajor(), template.tiles(),
                template.elementSizeBits(), template.memorySpace(), List.of());
    }

    /** Assigned bytes at {@code n}; -1 when the shape is not whole there. */
    long bytesAt(long n) {
        Shape s = shapeAt(n);
        if (s == null) return -1;
        return Math.addExact(s.paddedBytes(), extra);
    }

    /** The shape with its dimensions as laws: {@code f32[N,1024]}, {@code f32[4,8,N,N]}, {@code f32[N/2+1]}. */
    String shapeText(String var) {
        if (template == null) return "?";
        if (num.length == 0) return template.text();
        StringBuilder b = new StringBuilder(template.dtype()).append('[');
        for (int d = 0; d < num.length; d++) {
            if (d > 0) b.append(',');
            b.append(up[d] ? "ceil(" + affine(num[d], off[d], den[d], var) + ")" : affine(num[d], off[d], den[d], var));
        }
        return b.append(']').toString();
    }

    /**
     * The bytes as a polynomial in {@code N}, lowest power first ({@code [512, 4096]} for
     * {@code 4096·N + 512}); null when the shape is tiled or packed, whose bytes round up to tiles
     * and so follow no polynomial.
     */
    double[] coefficients() {
        if (template == null || !template.isArray() || num.length == 0 && !template.isArray()) return null;
        if (!template.tiles().isEmpty() || template.elementSizeBits() > 0 || rounds()) return null;
        // product of (num·N + off) over den, times the element's bytes: exact in big integers
        List<BigInteger> p = new ArrayList<>(List.of(BigInteger.valueOf((Shape.elementBits(template.dtype()) + 7) / 8)));
        BigInteger q = BigInteger.ONE;
        for (int d = 0; d < num.length; d++) {
            List<BigInteger> next = new ArrayList<>();
            for (int i = 0; i <= p.size(); i++) next.add(BigInteger.ZERO);
            for (int i = 0; i < p.size(); i++) {
                next.set(i, next.get(i).add(p.get(i).multiply(BigInteger.valueOf(off[d]))));
                next.set(i + 1, next.get(i + 1).add(p.get(i).multiply(BigInteger.valueOf(num[d]))));
            }
            p = next;
            q = q.multiply(BigInteger.valueOf(den[d]));
        }
        while (p.size() > 1 && p.get(p.size() - 1).signum() == 0) p.remove(p.size() - 1);
        double[] out = new double[p.size()];
        for (int i = 0; i < out.length; i++) out[i] = new BigDecimal(p.get(i)).divide(new BigDecimal(q), MathContext.DECIMAL64).doubleValue();
        if (extra != 0) out[0] += extra;
        return out;
    }

    /** {@code 4096·N + 512}, {@code 16·N² + 8192·N}; for a tiled shape, the bytes of its law's shape. */
    String bytesText(String var) {
        double[] c = coefficients();
        if (c == null) return num.length == 0 ? Long.toString(bytesAt(0)) : "bytes of " + shapeText(var) + (rounds() ? "" : " as tiled");
        StringBuilder b = new StringBuilder();
        for (int i = c.length - 1; i >= 0; i--) {
            if (c[i] == 0 && !(i == 0 && b.length() == 0)) continue;
            String mag = number(Math.abs(c[i]));
            if (b.length() > 0) b.append(c[i] < 0 ? " - " : " + ");
            else if (c[i] < 0) b.append('-');
            String power = i == 0 ? "" : i == 1 ? var : var + (i == 2 ? "²" : i == 3 ? "³" : "^" + i);
            b.append(i > 0 && mag.equals("1") ? power : i == 0 ? mag : mag + "·" + power);
        }
        return b.toString();
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e18 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.4g", v);
    }

    private static String affine(long a, long c, long d, String var) {
        String lin = a == 0 ? "" : (a == 1 ? "" : a == -1 ? "-" : a + "·") + var;
        String s;
        if (lin.isEmpty()) s = Long.toString(c);
        else if (c == 0) s = lin;
        else s = lin + (c > 0 ? "+" : "-") + Math.abs(c);
        if (d == 1) return s;
        return (lin.isEmpty() || c == 0 ? s : "(" + s + ")") + "/" + d;
    }

    private static String dimsText(long[] dims) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < dims.length; i++) b.append(i > 0 ? "," : "").append(dims[i]);
        return b.append(']').toString();
    }

    private static String dims(Shape[] shapes, int d) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < shapes.length; k++) b.append(k > 0 ? ", " : "").append(shapes[k].dim(d));
        return b.toString();
    }

    static String join(long[] xs) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < xs.length; k++) b.append(k > 0 ? ", " : "").append(xs[k]);
        return b.toString();
    }

    static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a == 0 ? 1 : a;
    }
}
