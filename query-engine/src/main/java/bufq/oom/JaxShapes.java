package bufq.oom;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The shapes JAX prints in a warning: {@code ShapedArray(float32[185,16,16,3])} (jax#9237),
 * {@code int32[128]}, or XLA's {@code f32[524288,32,32,1]{3,2,1,0}} (jax#1273), in XLA's words
 * ({@code f32[185,16,16,3]}) so they compare with a dump's shapes.
 */
final class JaxShapes {
    private JaxShapes() {}

    /** JAX's dtype names and XLA's, with bytes per element. */
    private static final Map<String, String> XLA = Map.ofEntries(
            Map.entry("float32", "f32"), Map.entry("float16", "f16"), Map.entry("bfloat16", "bf16"), Map.entry("float64", "f64"),
            Map.entry("int8", "s8"), Map.entry("int16", "s16"), Map.entry("int32", "s32"), Map.entry("int64", "s64"),
            Map.entry("uint8", "u8"), Map.entry("uint16", "u16"), Map.entry("uint32", "u32"), Map.entry("uint64", "u64"),
            Map.entry("bool", "pred"), Map.entry("complex64", "c64"), Map.entry("complex128", "c128"));
    private static final Map<String, Integer> BYTES = Map.ofEntries(
            Map.entry("f32", 4), Map.entry("f16", 2), Map.entry("bf16", 2), Map.entry("f64", 8), Map.entry("s8", 1),
            Map.entry("s16", 2), Map.entry("s32", 4), Map.entry("s64", 8), Map.entry("u8", 1), Map.entry("u16", 2),
            Map.entry("u32", 4), Map.entry("u64", 8), Map.entry("pred", 1), Map.entry("c64", 8), Map.entry("c128", 16));

    /** The shapes of a comma-separated list, each in XLA's words without layout; at most 1,000. */
    static List<String> listed(String text) {
        List<String> out = new ArrayList<>();
        int depth = 0, from = 0;
        for (int i = 0; i <= text.length() && out.size() < 1_000; i++) {
            char c = i < text.length() ? text.charAt(i) : ',';
            if (c == '[' || c == '(' || c == '{') depth++;
            else if (c == ']' || c == ')' || c == '}') depth--;
            else if (c == ',' && depth <= 0) {
                String s = xla(text.substring(from, i));
                if (s != null) out.add(s);
                from = i + 1;
            }
        }
        return out;
    }

    /** One shape in XLA's words ({@code f32[185,16,16,3]}), or null when {@code s} holds none. */
    static String xla(String s) {
        String t = s.strip();
        if (t.startsWith("ShapedArray(")) t = t.substring(12);
        int open = t.indexOf('['), close = t.indexOf(']');
        if (open <= 0 || close < open) return null;
        String dtype = t.substring(0, open).strip();
        dtype = XLA.getOrDefault(dtype, dtype);
        if (!BYTES.containsKey(dtype)) return null;
        return dtype + t.substring(open, close + 1).replace(" ", "");
    }

    /** The bytes of the shapes (dense, unpadded), or -1 when one is not known. */
    static long bytes(List<String> shapes) {
        long total = 0;
        for (String s : shapes) {
            int open = s.indexOf('[');
            long n = BYTES.get(s.substring(0, open));
            String dims = s.substring(open + 1, s.length() - 1);
            if (!dims.isEmpty()) {
                for (String d : dims.split(",")) {
                    try {
                        n = Math.multiplyExact(n, Long.parseLong(d.strip()));
                    } catch (NumberFormatException | ArithmeticException e) {
                        return -1;
                    }
                }
            }
            total += n;
            if (total < 0) return -1;
        }
        return total;
    }
}
