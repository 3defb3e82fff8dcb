package bufq.analysis.check;

import java.util.HashMap;
import java.util.Map;

/**
 * An instruction's {@code output_to_operand_aliasing={{1}: (0, {}), {2}: (1, {}), {3}: (1, {})}}:
 * which of its outputs XLA writes in place of which operand. Outputs aliased to one operand are one
 * buffer by design (an XLA:TPU asynchronous collective fusion hands the same operand back at two
 * indices of its tuple), so their values share bytes while both are live.
 */
final class OperandAliasing {
    private OperandAliasing() {}

    private static final String KEY = "output_to_operand_aliasing={";

    /**
     * Each aliased output index ({@code {2}}) with the operand it aliases ({@code 1{}}), read from an
     * instruction's attribute text; empty when it has none or the text is not of that form.
     */
    static Map<String, String> of(String attributes) {
        Map<String, String> out = new HashMap<>();
        if (attributes == null) return out;
        int i = attributes.indexOf(KEY);
        if (i < 0) return out;
        i += KEY.length();
        int n = attributes.length();
        // entry: '{' index '}' ':' '(' operand ',' '{' index '}' ')' [',']
        while (i < n && attributes.charAt(i) == '{') {
            int close = attributes.indexOf('}', i);
            int open = close < 0 ? -1 : attributes.indexOf('(', close);
            int comma = open < 0 ? -1 : attributes.indexOf(',', open);
            int opOpen = comma < 0 ? -1 : attributes.indexOf('{', comma);
            int opClose = opOpen < 0 ? -1 : attributes.indexOf('}', opOpen);
            int end = opClose < 0 ? -1 : attributes.indexOf(')', opClose);
            if (end < 0) return Map.of();
            String output = strip(attributes.substring(i, close + 1));
            String operand = attributes.substring(open + 1, comma).strip() + strip(attributes.substring(opOpen, opClose + 1));
            out.put(output, operand);
            i = end + 1;
            while (i < n && (attributes.charAt(i) == ',' || attributes.charAt(i) == ' ')) i++;
        }
        return out;
    }

    /** Whether outputs {@code a} and {@code b} ({@code {2}}, {@code {3}}) alias the same operand. */
    static boolean sameOperand(Map<String, String> aliasing, String a, String b) {
        String x = aliasing.get(strip(a));
        return x != null && x.equals(aliasing.get(strip(b)));
    }

    private static String strip(String index) { return index.replace(" ", ""); }
}
