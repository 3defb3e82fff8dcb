package bufq.dump.text;

import bufq.model.HloInstruction;
import bufq.model.HloPosition;
import bufq.model.HloUse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code Used values:} section, one block per value:
 * <pre>
 * '&lt;' ID NAME['{' IDX '}'][' (phi)'] ' @' COLOR '&gt;'
 * ' positions:'  ('  ' NAME [' {' IDX '}'])*
 * ' uses:'       ('  ' USER ', operand ' K [' {' IDX '}'] | '  (none)')*
 * ' from instruction:' [' '] INSTRUCTION
 * </pre>
 * A region may start in the middle of the section (parallel chunks start at a block header).
 */
public final class ValuesPart extends RegionParse {
    /** Blocks in dump order, as columns: ids and their positions and uses (no boxed map per value). */
    public int count;
    public long[] ids = new long[64];
    /** Relative line of each block's header (for a warning about an id used twice). */
    public long[] headerLines = new long[64];
    public List<HloPosition>[] positionsOf = newLists(64);
    public List<HloUse>[] usesOf = newLists(64);
    /**
     * Instructions defined here, in dump order, each once per run of blocks (a tuple's element
     * values repeat their instruction's line); the assembler keeps the first of each name.
     */
    public final List<HloInstruction> instructions = new ArrayList<>();

    /** Relative line where the last block stopped before its {@code from instruction:} line, or 0. */
    public long incompleteAt;

    private final Interner in;
    private long id = -1;
    private long headerLine;
    private final ArrayList<HloPosition> positions = new ArrayList<>();
    private final ArrayList<HloUse> uses = new ArrayList<>();
    private String instruction;
    private String lastDefined;
    private int mode; // 0 none, 1 positions, 2 uses

    private ValuesPart(Interner in, int chars) {
        this.in = in;
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T>[] newLists(int n) { return (List<T>[]) new List<?>[n]; }

    public static ValuesPart parse(String text, int from, int to, Interner in) {
        ValuesPart p = new ValuesPart(in, to - from);
        p.read(new Lines(text, from, to, 1, in.bytesOf(text), in.bytesOffset()));
        return p;
    }

    private void line(Lines ls) {
        if (ls.length() == 0) return;
        char c0 = ls.charAt(0);
        if (c0 == '<') {
            finish();
            header(ls);
        } else if (ls.startsWith("  ")) {
            if (id < 0) throw new Cursor.Bad("expected a '<id name @color>' header before this line");
            if (mode == 1) positions.add(position(ls));
            else if (mode == 2) use(ls);
            else throw new Cursor.Bad("expected ' positions:' or ' uses:' before this line");
        } else if (ls.startsWith(" positions:")) {
            mode = 1;
        } else if (ls.startsWith(" uses:")) {
            mode = 2;
        } else if (ls.startsWith(" from instruction:")) {
            mode = 0;
            fromInstruction(ls.text, ls.start + " from instruction:".length(), ls.end);
        } else if (ls.startsWith("Used values:")) {
            // section header
        } else if (ls.startsWith("Total bytes used:")) {
            // handled by the allocation part
        } else if (!ls.isBlank()) {
            throw new Cursor.Bad("expected a value block line, found '" + AllocationPart.clip(ls.line()) + "'");
        }
    }

    private void read(Lines ls) {
        readLines(ls, this::line);
        if (id >= 0 && instruction == null) incompleteAt = lines;
        finish();
    }

    // '<' ID ' ' ...  '>'
    private void header(Lines ls) {
        Cursor c = Cursor.at(ls, 1);
        long v = c.number();
        c.expect(" ");
        if (ls.text.charAt(ls.end - 1) != '>') throw new Cursor.Bad("expected '>' at the end of a value header");
        id = v;
        headerLine = ls.number;
        positions.clear();
        uses.clear();
        instruction = null;
        mode = 0;
    }

    private void finish() {
        if (id >= 0) {
            if (count == ids.length) {
                int n = count * 2;
                ids = Arrays.copyOf(ids, n);
                headerLines = Arrays.copyOf(headerLines, n);
                positionsOf = Arrays.copyOf(positionsOf, n);
                usesOf = Arrays.copyOf(usesOf, n);
            }
            ids[count] = id;
            headerLines[count] = headerLine;
            positionsOf[count] = List.copyOf(positions);
            usesOf[count] = List.copyOf(uses);
            count++;
        }
        id = -1;
    }

    // '  ' NAME [' {' IDX '}']
    private HloPosition position(Lines ls) {
        String t = ls.text;
        int from = ls.start + 2, end = ls.end;
        int sp = t.indexOf(' ', from);
        if (sp < 0 || sp >= end) return new HloPosition(in.name(t, from, end), "{}");
        if (t.charAt(sp + 1) != '{' || t.charAt(end - 1) != '}') {
            throw new Cursor.Bad("expected a position 'name {index}', found '" + AllocationPart.clip(t.substring(from, end)) + "'");
        }
        return new HloPosition(in.name(t, from, sp), in.name(t, sp + 1, end));
    }

    // '  ' USER ', operand ' K [' {' IDX '}'] | '  (none)'
    private void use(Lines ls) {
        if (ls.length() == 8 && ls.startsWith("  (none)")) return;
        Cursor c = Cursor.at(ls, 2);
        int sep = c.find(", operand ");
        if (sep < 0) throw c.bad("expected ', operand '");
        String user = in.name(c.s, c.pos, sep);
        c.pos = sep + ", operand ".length();
        int k = c.intNumber();
        String idx = "{}";
        if (c.match(" ")) {
            if (c.peek() != '{') throw c.bad("expected a shape index '{...}'");
            int close = c.find("}");
            if (close < 0) throw c.bad("expected '}'");
            idx = in.name(c.s, c.pos, close + 1);
            c.pos = close + 1;
        }
        if (!c.atEnd()) throw c.bad("expected end of use line");
        uses.add(new HloUse(user, k, idx));
    }

    private void fromInstruction(String text, int from, int to) {
        if (from < to && text.charAt(from) == ' ') from++;
        if (from < to && text.charAt(from) == '%') from++;
        int eq = text.indexOf(" = ", from);
        if (eq < 0 || eq + 3 > to) throw new Cursor.Bad("expected '%name = ' in instruction text");
        String name = in.name(text, from, eq);
        if (name != lastDefined) {
            instructions.add(InstructionLine.parse(text, from, to, name, in));
            lastDefined = name;
        }
        instruction = name;
    }
}
