package bufq.dump;

import bufq.model.HloInstruction;
import bufq.model.HloPosition;
import bufq.model.HloUse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
final class ValuesPart extends Part {
    record Details(List<HloPosition> positions, List<HloUse> uses, String instruction) {}

    final Map<Long, Details> details;
    /** First definition of each instruction, in dump order. */
    final Map<String, HloInstruction> instructions;

    /** Relative line where the last block stopped before its {@code from instruction:} line, or 0. */
    long incompleteAt;

    private final Interner in;
    private long id = -1;
    private List<HloPosition> positions;
    private List<HloUse> uses;
    private String instruction;
    private int mode; // 0 none, 1 positions, 2 uses

    private ValuesPart(Interner in, int chars) {
        this.in = in;
        int expected = Math.max(16, chars / 200);   // presized: resizing big maps showed in profiles
        this.details = new HashMap<>(expected * 4 / 3);
        this.instructions = new LinkedHashMap<>(expected * 4 / 3);
    }

    static ValuesPart parse(String text, int from, int to, Interner in) {
        ValuesPart p = new ValuesPart(in, to - from);
        p.read(new Lines(text, from, to, 1));
        return p;
    }

    private void line(Lines ls) {
        if (ls.length() == 0) return;
        char c0 = ls.charAt(0);
        if (c0 == '<') {
            finish();
            header(ls.line());
        } else if (ls.startsWith("  ")) {
            if (id < 0) throw new Cursor.Bad("expected a '<id name @color>' header before this line");
            if (mode == 1) positions.add(position(ls.line()));
            else if (mode == 2) use(ls.line());
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

    private void header(String line) {
        Cursor c = new Cursor(line);
        c.expect("<");
        long v = c.number();
        c.expect(" ");
        if (!line.endsWith(">")) throw new Cursor.Bad("expected '>' at the end of a value header");
        id = v;
        positions = new ArrayList<>(2);
        uses = new ArrayList<>(2);
        instruction = null;
        mode = 0;
    }

    private void finish() {
        if (id >= 0) details.put(id, new Details(List.copyOf(positions), List.copyOf(uses), instruction));
        id = -1;
    }

    // '  ' NAME [' {' IDX '}']
    private HloPosition position(String line) {
        String t = line.substring(2);
        int sp = t.indexOf(' ');
        if (sp < 0) return new HloPosition(in.name(t), "{}");
        String idx = t.substring(sp + 1);
        if (!idx.startsWith("{") || !idx.endsWith("}")) throw new Cursor.Bad("expected a position 'name {index}', found '" + AllocationPart.clip(t) + "'");
        return new HloPosition(in.name(t.substring(0, sp)), in.name(idx));
    }

    // '  ' USER ', operand ' K [' {' IDX '}'] | '  (none)'
    private void use(String line) {
        if (line.equals("  (none)")) return;
        Cursor c = new Cursor(line, 2, line.length());
        String user = c.upTo(", operand ");
        int k = c.intNumber();
        String idx = "{}";
        if (c.match(" ")) {
            if (c.peek() != '{') throw c.bad("expected a shape index '{...}'");
            idx = in.name(c.upTo("}") + "}");
        }
        if (!c.atEnd()) throw c.bad("expected end of use line");
        uses.add(new HloUse(in.name(user), k, idx));
    }

    private void fromInstruction(String text, int from, int to) {
        if (from < to && text.charAt(from) == ' ') from++;
        String body = text.substring(from, to);
        String name = InstructionLine.name(body);
        instruction = in.name(name.startsWith("%") ? name.substring(1) : name);
        if (!instructions.containsKey(instruction)) {
            instructions.put(instruction, InstructionLine.parse(body, in));
        }
    }
}
