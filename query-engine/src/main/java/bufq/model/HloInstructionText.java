package bufq.model;

import java.util.ArrayList;
import java.util.List;

/**
 * One instruction line of XLA's HLO text, split after its {@code name = }: the shape (an array or a
 * parenthesised tuple), the opcode, the operands' names and the attributes after them
 * ({@code calls=}, {@code metadata=}, ...), which callers read as they need.
 *
 * @param shape    the result's shape as printed
 * @param opcode   the opcode
 * @param operands the operands' names, without {@code %} and without the shapes older XLA prints before them
 * @param inside   the text between the operands' brackets as written ({@code 0} of {@code parameter(0)})
 * @param rest     the text from the operands' closing bracket on
 */
public record HloInstructionText(String shape, String opcode, List<String> operands, String inside, String rest) {

    /**
     * Splits {@code line} from {@code at}, the position just after its {@code " = "}.
     *
     * @return the parts, or null when the text there is not an instruction (no opcode and operands)
     */
    public static HloInstructionText parse(String line, int at) {
        int shapeEnd = line.startsWith("(", at) ? closing(line, at) + 1 : line.indexOf(' ', at);
        if (shapeEnd <= at || shapeEnd >= line.length()) return null;
        int open = line.indexOf('(', shapeEnd);
        if (open < 0) return null;
        String opcode = line.substring(shapeEnd, open).strip();
        int close = closing(line, open);
        if (close < 0) return null;
        List<String> operands = new ArrayList<>();
        for (String o : line.substring(open + 1, close).split(",")) {
            String t = o.replaceAll("/\\*.*?\\*/", "").strip();
            int sp = t.lastIndexOf(' ');
            if (sp >= 0) t = t.substring(sp + 1);   // older XLA prints each operand's shape before its name
            if (t.startsWith("%")) t = t.substring(1);
            if (!t.isEmpty() && !Character.isDigit(t.charAt(0))) operands.add(t);
        }
        return new HloInstructionText(line.substring(at, shapeEnd), opcode, operands, line.substring(open + 1, close),
                line.substring(close));
    }

    /** The position of the bracket ({@code (} or <code>{</code>) closing the one at {@code open}, or -1. */
    public static int closing(String s, int open) {
        char o = s.charAt(open), c = o == '(' ? ')' : '}';
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == o) depth++;
            else if (ch == c && --depth == 0) return i;
        }
        return -1;
    }
}
