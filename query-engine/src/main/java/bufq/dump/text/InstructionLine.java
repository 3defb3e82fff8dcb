package bufq.dump.text;

import bufq.model.HloInstruction;
import bufq.model.Shape;

import java.util.ArrayList;
import java.util.List;

/**
 * The HLO text after {@code from instruction:}. Grammar:
 * <pre>
 * instruction := '%' NAME ' = ' SHAPE ' ' OPCODE '(' operands ')' [', ' attributes]
 * operands    := [operand (', ' operand)*]     operand := ['/*index=N*&#47;'] [SHAPE ' '] '%' NAME | literal
 * </pre>
 * Old HLO prints each operand's shape before its name; constants print literals instead of operands.
 */
final class InstructionLine {
    private InstructionLine() {}

    /** Parses {@code text[from, to)} (after any {@code %}), whose name the caller has read already. */
    static HloInstruction parse(String text, int from, int to, String name, Interner in) {
        Cursor c = new Cursor(text, from, to, from);
        int eq = c.find(" = ");
        if (eq < 0) throw c.bad("expected ' = ' after the instruction name");
        c.pos = eq + 3;
        int shapeStart = c.pos;
        if (c.peek() == '(') skipBalanced(c);
        else while (!c.atEnd() && c.peek() != ' ') c.pos++;
        Shape shape = in.shape(text, shapeStart, c.pos);
        c.expect(" ");
        int opStart = c.pos;
        while (!c.atEnd() && c.peek() != '(' && c.peek() != ' ') c.pos++;
        if (c.pos == opStart || c.peek() != '(') throw c.bad("expected an opcode and '('");
        String opcode = in.name(text, opStart, c.pos);
        int argsStart = c.pos + 1;
        skipBalanced(c);
        List<String> operands = operands(text, argsStart, c.pos - 1, in);
        String head = "", metadata = null;
        if (c.match(", ")) {
            // Two shared pieces: the metadata repeats across layers and copies, the rest names this instruction's own.
            int md = HloInstruction.metadataStart(text, c.pos, to);
            head = in.name(text, c.pos, md < 0 ? to : md);
            if (md >= 0) metadata = in.name(text, md, to);
        } else if (!c.atEnd()) throw c.bad("expected ', ' before attributes");
        OpMetadata meta = metadata == null ? OpMetadata.NONE : in.metadata(metadata, t -> metadata(t, in));
        return HloInstruction.of(name, -1, shape, opcode, operands, meta.opName(), meta.sourceFile(), meta.sourceLine(),
                head, metadata);
    }

    /** Reads {@code metadata={key=value ...}...} (the text from {@code metadata=} to the line's end). */
    static OpMetadata metadata(String text, Interner in) {
        String opName = null, sourceFile = null;
        int sourceLine = -1;
        Cursor m = new Cursor(text, "metadata={".length(), text.length());
        while (!m.atEnd() && m.peek() != '}') {
            while (m.peek() == ' ') m.pos++;
            String key = m.upTo("=");
            String value;
            if (m.peek() == '"') value = quoted(m);
            else {
                int vs = m.pos;
                while (!m.atEnd() && m.peek() != ' ' && m.peek() != '}') m.pos++;
                value = text.substring(vs, m.pos);
            }
            switch (key) {
                case "op_name" -> opName = in.name(value);
                case "source_file" -> sourceFile = in.name(value);
                case "source_line" -> {
                    try { sourceLine = Integer.parseInt(value); } catch (NumberFormatException e) { throw m.bad("expected a source_line number"); }
                }
                default -> { }
            }
        }
        return new OpMetadata(opName, sourceFile, sourceLine);
    }

    /** Moves past a balanced ( ... ) group starting at the cursor, ignoring parens inside quotes. */
    static void skipBalanced(Cursor c) {
        int depth = 0;
        boolean inQuote = false;
        do {
            if (c.atEnd()) throw c.bad("expected ')' (unbalanced parentheses)");
            char ch = c.s.charAt(c.pos++);
            if (inQuote) {
                if (ch == '\\') c.pos++;
                else if (ch == '"') inQuote = false;
            } else if (ch == '"') inQuote = true;
            else if (ch == '(') depth++;
            else if (ch == ')') depth--;
        } while (depth > 0);
    }

    private static List<String> operands(String text, int from, int to, Interner in) {
        List<String> out = new ArrayList<>(4);
        int i = from;
        while (i < to) {
            int p = text.indexOf('%', i);
            if (p < 0 || p >= to) break;
            int e = p + 1;
            while (e < to) {
                char ch = text.charAt(e);
                if (ch == ',' || ch == ' ' || ch == ')') break;
                e++;
            }
            if (e > p + 1) out.add(in.name(text, p + 1, e));
            i = e;
        }
        return out;
    }

    private static String quoted(Cursor m) {
        m.expect("\"");
        StringBuilder b = new StringBuilder();
        while (!m.atEnd() && m.peek() != '"') {
            char ch = m.s.charAt(m.pos++);
            if (ch == '\\' && !m.atEnd()) ch = m.s.charAt(m.pos++);
            b.append(ch);
        }
        m.expect("\"");
        return b.toString();
    }
}
