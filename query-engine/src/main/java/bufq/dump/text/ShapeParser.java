package bufq.dump.text;

import bufq.model.Shape;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads XLA shape text ({@code f32[16,64]{1,0:T(8,128)S(1)}}, tuples, {@code token[]}) into a
 * {@link Shape}. Hand-written and single pass; odd input raises {@link ShapeSyntaxException}, which
 * the reader turns into a warning.
 *
 * <p>An instance interns: equal texts give one {@code Shape}, including tuple elements.
 */
public final class ShapeParser {
    private final Map<String, Shape> cache;
    private String s;
    private int pos;

    /** A parser that interns into {@code cache} (shared between threads: use a concurrent map). */
    ShapeParser(Map<String, Shape> cache) {
        this.cache = cache;
    }

    /** A fresh, non-interning parse. */
    public static Shape parse(String text) {
        return new ShapeParser(new ConcurrentHashMap<>()).shape(text);
    }

    /** The shape for {@code text}, interned. */
    Shape shape(String text) {
        Shape cached = cache.get(text);
        if (cached != null) return cached;
        ShapeParser p = new ShapeParser(cache);
        p.s = text;
        p.pos = 0;
        Shape r = p.shapeRule();
        p.skipComment();
        if (p.pos != text.length()) throw p.error("unexpected '" + text.charAt(p.pos) + "' after shape");
        try {
            r.logicalBytes();
            r.paddedBytes();
        } catch (ArithmeticException e) {
            throw new ShapeSyntaxException("size of shape '" + clip(text) + "' overflows 64 bits", 0);
        }
        Shape prev = cache.putIfAbsent(text, r);
        return prev != null ? prev : r;
    }

    // shape := tuple | array
    private Shape shapeRule() {
        if (pos < s.length() && s.charAt(pos) == '(') return tuple();
        return array();
    }

    // tuple := '(' [ element (',' ' '? element)* ] ')' ; element := comment? shape
    private Shape tuple() {
        int start = pos;
        pos++;
        List<Shape> elements = new ArrayList<>();
        skipComment();
        if (peek() != ')') {
            while (true) {
                skipComment();
                int elStart = pos;
                Shape e = shapeRule();
                String elText = s.substring(elStart, pos);
                Shape interned = cache.putIfAbsent(elText, e);
                elements.add(interned != null ? interned : e);
                skipComment();
                if (peek() == ',') {
                    pos++;
                    if (peek() == ' ') pos++;
                    continue;
                }
                break;
            }
        }
        expect(')');
        return new Shape(s.substring(start, pos), "tuple", new long[0], false, null, List.of(), 0, 0, elements);
    }

    private void skipComment() {
        while (s.startsWith("/*", pos)) {
            int end = s.indexOf("*/", pos + 2);
            if (end < 0) throw error("unterminated comment");
            pos = end + 2;
        }
    }

    // array := dtype '[' [dim (',' dim)*] ']' [ '{' layout '}' ]
    private Shape array() {
        int start = pos;
        while (pos < s.length() && isIdent(s.charAt(pos))) pos++;
        String dtype = s.substring(start, pos);
        if (dtype.isEmpty()) throw error("expected an element type");
        boolean known = Shape.elementBits(dtype) > 0 || dtype.equals("token") || dtype.equals("opaque");
        if (!known) throw error("unknown element type '" + dtype + "'");
        expect('[');
        List<Long> dims = new ArrayList<>(4);
        boolean dynamic = false;
        if (peek() != ']') {
            while (true) {
                if (s.startsWith("<=", pos)) {
                    pos += 2;
                    dynamic = true;
                    dims.add(number());
                } else if (peek() == '?') {
                    pos++;
                    dynamic = true;
                    dims.add(0L);
                } else {
                    dims.add(number());
                }
                if (peek() == ',') { pos++; continue; }
                break;
            }
        }
        expect(']');
        long[] d = new long[dims.size()];
        for (int i = 0; i < d.length; i++) d[i] = dims.get(i);
        int[] m2m = null;
        List<long[]> tiles = new ArrayList<>(2);
        int[] attrs = {0, 0}; // E(bits), S(space)
        if (peek() == '{') {
            pos++;
            m2m = layout(tiles, attrs);
            expect('}');
        }
        return new Shape(s.substring(start, pos), dtype, d, dynamic, m2m, tiles, attrs[0], attrs[1], List.of());
    }

    // layout := [INT (',' INT)*] [':' attribute*]
    private int[] layout(List<long[]> tiles, int[] attrs) {
        List<Integer> order = new ArrayList<>(4);
        while (isDigit(peek())) {
            order.add((int) number());
            if (peek() == ',') pos++;
        }
        if (peek() == ':') {
            pos++;
            while (pos < s.length() && s.charAt(pos) != '}') attribute(tiles, attrs);
        }
        int[] m = new int[order.size()];
        for (int i = 0; i < m.length; i++) m[i] = order.get(i);
        return m;
    }

    // attribute := 'T' ('(' tiledims ')')+ | 'E(' INT ')' | 'S(' INT ')' | 'P(' shape ')' | LETTERS '(' ... ')' | '#(' .. ')' | '*(' .. ')'
    private void attribute(List<long[]> tiles, int[] attrs) {
        char c = s.charAt(pos);
        if (c == 'T' && s.startsWith("T(", pos)) {
            pos++;
            while (peek() == '(') tiles.add(tileDims());
            return;
        }
        if (s.startsWith("E(", pos)) { pos += 2; attrs[0] = (int) number(); expect(')'); return; }
        if (s.startsWith("S(", pos)) { pos += 2; attrs[1] = (int) number(); expect(')'); return; }
        if (s.startsWith("P(", pos)) { pos += 2; shapeRule(); expect(')'); return; }
        int start = pos;
        while (pos < s.length() && (Character.isLetter(s.charAt(pos)) || s.charAt(pos) == '#' || s.charAt(pos) == '*')) pos++;
        if (pos == start || peek() != '(') throw error("unexpected '" + c + "' in layout");
        skipParens();
    }

    private long[] tileDims() {
        expect('(');
        List<Long> t = new ArrayList<>(2);
        while (true) {
            if (peek() == '*') { pos++; t.add(-1L); } else t.add(number());
            if (peek() == ',') { pos++; continue; }
            break;
        }
        expect(')');
        long[] r = new long[t.size()];
        for (int i = 0; i < r.length; i++) r[i] = t.get(i);
        return r;
    }

    private void skipParens() {
        int depth = 0;
        do {
            if (pos >= s.length()) throw error("unbalanced '(' in layout");
            char c = s.charAt(pos++);
            if (c == '(') depth++;
            else if (c == ')') depth--;
        } while (depth > 0);
    }

    private long number() {
        int start = pos;
        long v = 0;
        while (pos < s.length() && isDigit(s.charAt(pos))) {
            try {
                v = Math.addExact(Math.multiplyExact(v, 10), s.charAt(pos) - '0');
            } catch (ArithmeticException e) {
                throw error("number too large");
            }
            pos++;
        }
        if (pos == start) throw error(pos < s.length() ? "expected a number, found '" + s.charAt(pos) + "'" : "expected a number");
        return v;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error(pos < s.length() ? "expected '" + c + "', found '" + s.charAt(pos) + "'" : "expected '" + c + "' at end of shape");
        }
        pos++;
    }

    private char peek() { return pos < s.length() ? s.charAt(pos) : '\0'; }
    private static boolean isDigit(char c) { return c >= '0' && c <= '9'; }
    private static boolean isIdent(char c) { return (c >= 'a' && c <= 'z') || isDigit(c) || c == '_'; }

    private ShapeSyntaxException error(String message) {
        return new ShapeSyntaxException(message + " at column " + (pos + 1) + " of shape '" + clip(s) + "'", pos);
    }

    private static String clip(String t) { return t.length() > 80 ? t.substring(0, 77) + "..." : t; }

    /** A shape text the {@link ShapeParser} cannot read; callers turn it into a load warning. */
    static final class ShapeSyntaxException extends RuntimeException {
        private final int position;

        ShapeSyntaxException(String message, int position) {
            super(message);
            this.position = position;
        }

        /** Offset in the shape text where reading stopped. */
        int position() { return position; }
    }
}
