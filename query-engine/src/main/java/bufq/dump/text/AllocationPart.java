package bufq.dump.text;

import bufq.dump.text.Lines.Literal;
import bufq.model.BufferAllocation;
import bufq.util.LongList;
import bufq.model.Shape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The allocation section: {@code allocation i: size N, flags:} lines, each followed by its
 * {@code value: <id name{idx} @c> (size=,offset=): shape} lines, and {@code Total bytes used: N}.
 * Also reads the {@code Total bytes used} line that jaxlib 0.10 puts atop the values file.
 */
public final class AllocationPart extends RegionParse {
    public final List<BufferAllocation> allocations = new ArrayList<>();
    public final RawValues values;
    public Long totalBytes;
    /** The total was printed with its human part ({@code (80.81MiB)}): not a TF-era file. */
    boolean totalHuman;
    boolean sawHeader;
    /**
     * Where the region's last allocation has fewer value bytes than its size (no value line, or
     * values ending short of it), what is missing; else null. In every allocation of the corpus the
     * values reach the allocation's size: a file that ends so was cut inside its last allocation.
     */
    String lastShort;

    private final Interner in;
    private final Cursor cursor = new Cursor("");
    // The allocation being read; its value ids are gathered until the next allocation line.
    private AllocationLine current;
    private long[] currentIds = new long[8];
    private int currentCount;
    // The last line read was blank: after the allocations of a single-file dump, 'Total bytes used' follows it.
    private boolean endsBlank;
    // The end of the current allocation's furthest value (offset + size).
    private long currentExtent;
    // After an allocation line that was refused: its value lines go with it, without a warning each.
    private boolean skipping;
    // After a 'Used values:' line: the rest of the region is a section read from elsewhere.
    private boolean foreignValues;
    // Sizes read so far: a module whose sizes add up past Limits.MAX_TOTAL is forged or damaged.
    private final Limits.Sum allocationBytes = new Limits.Sum();
    private final Limits.Sum valueBytes = new Limits.Sum();

    private AllocationPart(Interner in, int chars) {
        this.in = in;
        // A value line of a real dump is 80-100 characters; the allocation lines are fewer.
        this.values = new RawValues(chars / 90);
    }

    public static AllocationPart parse(String text, int from, int to, Interner in) {
        AllocationPart p = new AllocationPart(in, to - from);
        p.read(new Lines(text, from, to, 1, in.bytesOf(text), in.bytesOffset()));
        return p;
    }

    private void line(Lines ls) {
        if (foreignValues) return;
        endsBlank = ls.isBlank();
        if (endsBlank) return;
        if (ls.startsWith(VALUE)) {
            if (skipping) return;
            value(ls);
        } else if (ls.startsWith("allocation ")) {
            finish();
            skipping = true;
            AllocationLine a = AllocationLine.parse(ls.line(), false, in);
            Limits.bytes(a.size, "size");
            allocationBytes.add(a.size, "allocation " + a.index + "'s size");
            current = a;
            currentCount = 0;
            currentExtent = 0;
            skipping = false;
        } else if (ls.startsWith("Total bytes used:")) {
            totalBytes = total(ls.line());
            totalHuman = ls.line().indexOf('(') > 0;
        } else if (ls.startsWith("BufferAssignment:")) {
            sawHeader = true;
        } else if (ls.startsWith("Used values:")) {
            // Only where the module has a values file of its own (else the reader cut the section off
            // before this part): XLA writes none here then, and the values file's section is the one read.
            warn(ls.number, "a 'Used values:' section in the allocation file of a set with its own values file; "
                    + "not read (the values file's is), nor the rest of this file");
            foreignValues = true;
        } else {
            warn(ls.number, "expected an allocation, value or 'Total bytes used' line, found '" + clip(ls.line()) + "'");
        }
    }

    private void read(Lines ls) {
        readLines(ls, this::line);
        if (current != null && totalBytes == null && !foreignValues && endsBlank)
            lastShort = "it stops after its allocations and a blank line, before 'Total bytes used'";
        else if (current != null && totalBytes == null && !foreignValues && currentExtent < current.size)
            lastShort = currentCount == 0 ? "allocation " + current.index + " (size " + current.size + ") has no value line"
                    : "allocation " + current.index + "'s values reach byte " + currentExtent + " of its " + current.size;
        finish();
        if (sawHeader && allocations.isEmpty() && totalBytes == null && !foreignValues) lastShort = "its 'BufferAssignment:' header has no allocation after it";
    }

    private void finish() {
        if (current != null) {
            allocations.add(current.toAllocation(true, LongList.of(Arrays.copyOf(currentIds, currentCount))));
        }
        current = null;
    }

    private static final Literal VALUE = Literal.of(" value: <"), PHI = Literal.of(" (phi)"), COLOR = Literal.of(" @"),
            SIZE = Literal.of("> (size="), OFFSET = Literal.of(",offset="), SHAPE = Literal.of("): ");

    // ' value: <' id ' ' name ['{' idx '}'] [' (phi)'] ' @' color '> (size=' N ',offset=' N '): ' shape
    private void value(Lines ls) {
        Cursor c = cursor.reset(ls, VALUE.length());
        long id = c.number();
        c.expect(' ');
        int nameStart = c.pos;
        c.skipName();
        if (c.pos == nameStart) throw c.bad("expected a value name");
        int symbol = in.symbol(c.s, nameStart, c.pos);
        String name = in.lastName();
        String index = "{}";
        boolean indexPrinted = false;
        if (c.peek() == '{') {
            int close = c.find('}');
            if (close < 0) throw c.bad("expected '}'");
            index = in.name(c.s, c.pos, close + 1);
            c.pos = close + 1;
            indexPrinted = true;
        }
        boolean phi = c.match(PHI);
        int color = 0;
        if (c.match(COLOR)) color = c.intNumber();   // TF-era values without a colour omit it
        c.expect(SIZE);
        long size = Limits.bytes(c.number(), "size");
        c.expect(OFFSET);
        long offset = Limits.bytes(c.number(), "offset");
        c.expect(SHAPE);
        Shape shape = in.shape(c.s, c.pos, c.end);
        if (current == null) throw new Cursor.Bad("value line before any allocation line");
        long logical = shape.logicalBytes(), padded = shape.paddedBytes();
        Limits.bytes(Math.max(logical, padded), "shape size");
        valueBytes.add(Math.max(size, Math.max(logical, padded)), "value", id);
        if (currentCount == currentIds.length) currentIds = Arrays.copyOf(currentIds, currentCount * 2);
        currentIds[currentCount++] = id;
        currentExtent = Math.max(currentExtent, offset + size);
        values.add(id, name, symbol, index, indexPrinted, phi, color, size, offset, current.index, shape);
    }

    /** {@code Total bytes used: N[ (human)]}. */
    static long total(String line) {
        Cursor c = new Cursor(line);
        c.expect("Total bytes used:");
        while (c.peek() == ' ') c.pos++;
        return c.number();
    }

    static String clip(String s) {
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}
