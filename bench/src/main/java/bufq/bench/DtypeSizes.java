package bufq.bench;

/**
 * Byte arithmetic the generator needs, written independently of the reader so a generated dump
 * checks the reader rather than agreeing with it by construction.
 */
final class DtypeSizes {
    private DtypeSizes() {}

    /** Bits per element of an XLA primitive type, 0 when not an array type. */
    static int elementBits(String dtype) {
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

    /**
     * XLA's {@code ShapeUtil::ByteSizeOf(shape, 8)} for a printed shape: a tuple is its index table
     * (8 bytes per top-level element), {@code token[]} is 0, an array is elements times width.
     */
    static long logicalBytes(String shape) {
        String s = shape.trim();
        if (s.startsWith("(")) return 8L * topLevelElements(s);
        int br = s.indexOf('[');
        if (br < 0) return 8;
        String dtype = s.substring(0, br);
        if (dtype.equals("token")) return 0;
        int bits = elementBits(dtype);
        if (bits == 0) return 8;
        int close = s.indexOf(']', br);
        String dims = s.substring(br + 1, close);
        long n = 1;
        if (!dims.isEmpty()) {
            for (String d : dims.split(",")) {
                String t = d.startsWith("<=") ? d.substring(2) : d;
                n = Math.multiplyExact(n, t.equals("?") ? 0 : Long.parseLong(t));
            }
        }
        return (Math.multiplyExact(n, (long) bits) + 7) / 8;
    }

    /** Number of top-level elements of a tuple shape text {@code (a, (b, c), d[1]{0})}. */
    static int topLevelElements(String tuple) {
        int depth = 0, commas = 0;
        boolean any = false;
        for (int i = 0; i < tuple.length(); i++) {
            char c = tuple.charAt(i);
            if (c == '(' || c == '[' || c == '{') depth++;
            else if (c == ')' || c == ']' || c == '}') {
                depth--;
                if (depth == 0) break;
            } else if (depth == 1 && c == ',') commas++;
            else if (depth == 1 && !Character.isWhitespace(c)) any = true;
        }
        return any ? commas + 1 : 0;
    }

    /** The shape text at the start of {@code text} (balanced parentheses for tuples, else up to a space). */
    static String leadingShape(String text) {
        if (text.startsWith("(")) {
            int depth = 0;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '(') depth++;
                else if (c == ')' && --depth == 0) return text.substring(0, i + 1);
            }
            return text;
        }
        int sp = text.indexOf(' ');
        return sp < 0 ? text : text.substring(0, sp);
    }

    /** tsl's HumanReadableNumBytes as XLA prints it after {@code Total bytes used}: {@code 411.13MiB}, {@code 8B}. */
    static String human(long bytes) {
        if (bytes < 1024) return bytes + "B";
        String units = "KMGTPE";
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length() - 1) {
            v /= 1024;
            u++;
        }
        return String.format(java.util.Locale.ROOT, "%.2f%ciB", v, units.charAt(u));
    }

    /** Digits grouped by spaces as the stack-trace breakdown prints them: {@code 426 147 848}. */
    static String grouped(long n) {
        String s = Long.toString(n);
        StringBuilder b = new StringBuilder();
        int lead = s.length() % 3;
        for (int i = 0; i < s.length(); i++) {
            if (i > 0 && (i - lead) % 3 == 0) b.append(' ');
            b.append(s.charAt(i));
        }
        return b.toString();
    }
}
