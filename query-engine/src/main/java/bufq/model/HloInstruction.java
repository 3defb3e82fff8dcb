package bufq.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An instruction as printed in a value's {@code from instruction:} line, joined with its place in the
 * InstructionSequence. Immutable.
 *
 * <p>The attribute text is kept in two shared pieces, the part before {@code metadata=} and the
 * metadata itself: metadata repeats across layers and copies of a program, the rest carries the
 * instruction's own names. (It was a record; the accessors, constructor and equality are as they were.)
 */
public final class HloInstruction {
    private static final String METADATA = "metadata={";

    private final String name;
    private final int time;
    private final Shape shape;
    private final String opcode;
    private final List<String> operands;
    private final String opName;
    private final String sourceFile;
    private final int sourceLine;
    private final String head;       // attributes before METADATA (or all of them), "" when none
    private final String metadata;   // from METADATA to the end, or null
    private final List<String> stack; // full Python stack, outermost frame first; empty when unknown

    /**
     * @param time       position in the sequence, or -1 when not sequenced (fusion bodies, reducers)
     * @param shape      output shape, or null when only the sequence names the instruction
     * @param opcode     e.g. {@code fusion}, or null when unknown
     * @param operands   operand instruction names, without {@code %}
     * @param attributes raw text after the operand list ({@code kind=kLoop, calls=...}), may be empty
     */
    public HloInstruction(String name, int time, Shape shape, String opcode, List<String> operands,
                          String opName, String sourceFile, int sourceLine, String attributes) {
        this(name, time, shape, opcode, operands, opName, sourceFile, sourceLine, headOf(attributes), metadataOf(attributes), List.of());
    }

    private HloInstruction(String name, int time, Shape shape, String opcode, List<String> operands, String opName,
                           String sourceFile, int sourceLine, String head, String metadata, List<String> stack) {
        this.name = name;
        this.time = time;
        this.shape = shape;
        this.opcode = opcode;
        this.operands = List.copyOf(operands);
        this.opName = opName;
        this.sourceFile = sourceFile;
        this.sourceLine = sourceLine;
        this.head = head;
        this.metadata = metadata;
        this.stack = stack;
    }

    /**
     * An instruction whose attribute text comes in its two pieces ({@link #attributes()} is
     * {@code head + metadata}), each already shared by the caller.
     */
    public static HloInstruction of(String name, int time, Shape shape, String opcode, List<String> operands,
                                    String opName, String sourceFile, int sourceLine, String head, String metadata) {
        return new HloInstruction(name, time, shape, opcode, operands, opName, sourceFile, sourceLine, head, metadata, List.of());
    }

    /**
     * As {@link #of}, with the instruction's whole Python stack (outermost frame first, each
     * {@code file:line (function)}), as a proto dump's {@code stack_frame_index} gives it.
     */
    public static HloInstruction withStack(String name, int time, Shape shape, String opcode, List<String> operands,
                                           String opName, String sourceFile, int sourceLine, String head, String metadata,
                                           List<String> stack) {
        return new HloInstruction(name, time, shape, opcode, operands, opName, sourceFile, sourceLine, head, metadata,
                List.copyOf(stack));
    }

    /**
     * Where {@code attributes} splits into its own part and its shared metadata: before the attribute
     * {@code metadata=}, not a word ending so ({@code frontend_attributes={kernel_metadata={}}} of a
     * Pallas TPU kernel comes first).
     */
    public static int metadataStart(String attributes) {
        return metadataStart(attributes, 0, attributes.length());
    }

    /** As {@link #metadataStart(String)} within {@code text[from, to)}: the index in {@code text}, or -1. */
    public static int metadataStart(String text, int from, int to) {
        for (int i = text.indexOf(METADATA, from); i >= 0 && i + METADATA.length() <= to; i = text.indexOf(METADATA, i + 1)) {
            char before = i == from ? ' ' : text.charAt(i - 1);
            if (before == ' ' || before == ',') return i;
        }
        return -1;
    }

    private static String headOf(String attributes) {
        int m = metadataStart(attributes);
        return m < 0 ? attributes : attributes.substring(0, m);
    }

    private static String metadataOf(String attributes) {
        int m = metadataStart(attributes);
        return m < 0 ? null : attributes.substring(m);
    }

    /** Only the sequence named it; the dump printed no defining line. */
    public static HloInstruction sequenced(String name, int time) {
        return new HloInstruction(name, time, null, null, List.of(), null, null, -1, "", null, List.of());
    }

    public HloInstruction withTime(int t) {
        return new HloInstruction(name, t, shape, opcode, operands, opName, sourceFile, sourceLine, head, metadata, stack);
    }

    public String name() { return name; }
    /** Position in the sequence, or -1 when not sequenced (fusion bodies, reducers). */
    public int time() { return time; }
    /** Output shape, or null when only the sequence names the instruction. */
    public Shape shape() { return shape; }
    /** E.g. {@code fusion}, or null when unknown. */
    public String opcode() { return opcode; }
    /** Operand instruction names, without {@code %}. */
    public List<String> operands() { return operands; }
    public String opName() { return opName; }
    public String sourceFile() { return sourceFile; }
    public int sourceLine() { return sourceLine; }

    /**
     * The source as {@code blame by source} names it: {@code file:line}, the file alone without a
     * line, or null when the dump gives none.
     */
    public String source() {
        if (sourceFile == null || sourceFile.isEmpty()) return null;
        return sourceLine > 0 ? sourceFile + ":" + sourceLine : sourceFile;
    }
    /**
     * The whole Python stack that made the instruction, outermost frame first, each
     * {@code file:line (function)}; empty when the dump has only {@code source_file:source_line}.
     */
    public List<String> stack() { return stack; }
    /** Raw text after the operand list ({@code kind=kLoop, calls=...}), may be empty. */
    public String attributes() { return metadata == null ? head : head + metadata; }

    @Override public boolean equals(Object o) {
        return o instanceof HloInstruction i && time == i.time && sourceLine == i.sourceLine && name.equals(i.name)
                && Objects.equals(shape, i.shape) && Objects.equals(opcode, i.opcode) && operands.equals(i.operands)
                && Objects.equals(opName, i.opName) && Objects.equals(sourceFile, i.sourceFile)
                && attributes().equals(i.attributes());
    }

    @Override public int hashCode() {
        return Objects.hash(name, time, shape, opcode, operands, opName, sourceFile, sourceLine);
    }

    @Override public String toString() {
        return "HloInstruction[name=" + name + ", time=" + time + ", shape=" + shape + ", opcode=" + opcode
                + ", operands=" + operands + ", opName=" + opName + ", sourceFile=" + sourceFile + ", sourceLine="
                + sourceLine + ", attributes=" + attributes() + "]";
    }

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
    public record Text(String shape, String opcode, List<String> operands, String inside, String rest) {

        /**
         * Splits {@code line} from {@code at}, the position just after its {@code " = "}.
         *
         * @return the parts, or null when the text there is not an instruction (no opcode and operands)
         */
        public static Text parse(String line, int at) {
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
            return new Text(line.substring(at, shapeEnd), opcode, operands, line.substring(open + 1, close),
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
}
