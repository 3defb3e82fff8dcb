package bufq.dump.text;

import bufq.model.BufferAllocation;
import bufq.model.Shape;
import bufq.units.Unit;

import java.util.List;

/**
 * One {@code allocation i: ...:} line. Grammar (flags in XLA's fixed order):
 * <pre>
 * 'allocation' INT ':' [' 0x' HEX ','] ' size ' SIZE [', color ' INT]
 *   [', parameter ' INT [', shape |' SHAPE '|'] [' at ShapeIndex {' IDX '}']]
 *   [', output shape is |' SHAPE '|'] [', constant'] [', thread-local'] [', maybe-live-out']
 *   [', preallocated-temp'] ':'
 * </pre>
 * SIZE is bytes in a dump, or a rounded human figure ({@code 1.08GiB}) in a memory usage report.
 */
public final class AllocationLine {
    int index;
    long size;
    boolean sizeExact = true;
    int color;
    int parameter = -1;
    Shape parameterShape;
    String shapeIndex;
    Shape outputShape;
    boolean constant, threadLocal, maybeLiveOut, preallocatedTemp;
    String pointer;

    static AllocationLine parse(String line, boolean humanSizes, Interner in) {
        AllocationLine a = new AllocationLine();
        Cursor c = new Cursor(line);
        c.expect("allocation ");
        a.index = c.intNumber();
        c.expect(":");
        if (c.match(" 0x")) {
            a.pointer = "0x" + c.upTo(",");
        }
        c.expect(" size ");
        if (humanSizes) {
            long[] s = humanSize(c);
            a.size = s[0];
            a.sizeExact = s[1] == 1;
        } else {
            a.size = c.number();
        }
        if (c.match(", color ")) a.color = c.intNumber();
        if (c.match(", parameter ")) {
            a.parameter = c.intNumber();
            if (c.match(", shape |")) a.parameterShape = shape(c.upTo("|"), in);
            if (c.match(" at ShapeIndex ")) {    // absent in the oldest dumps
                if (c.peek() != '{') throw c.bad("expected '{' of a ShapeIndex");
                a.shapeIndex = in.name(c.upTo("}") + "}");
            }
        }
        if (c.match(", output shape is |")) a.outputShape = shape(c.upTo("|"), in);
        if (c.match(", constant")) a.constant = true;
        if (c.match(", thread-local")) a.threadLocal = true;
        if (c.match(", maybe-live-out")) a.maybeLiveOut = true;
        if (c.match(", preallocated-temp")) a.preallocatedTemp = true;
        c.expect(":");
        if (!c.atEnd()) throw c.bad("expected end of allocation line");
        return a;
    }

    private static Shape shape(String text, Interner in) {
        return in.shape(text);
    }

    public BufferAllocation toAllocation(boolean exact, List<Long> valueIds) {
        return new BufferAllocation(index, size, color, parameter, parameterShape, shapeIndex, outputShape, constant,
                threadLocal, maybeLiveOut, preallocatedTemp, pointer, exact && sizeExact, valueIds);
    }

    /**
     * A human size such as {@code 16B}, {@code 8.0KiB}, {@code 1.08GiB}: {bytes, 1 if exact else 0}.
     * Only plain bytes are exact; the others are rounded by the printer.
     */
    static long[] humanSize(Cursor c) {
        long whole = c.number();
        long frac = 0, scale = 1;
        if (c.match(".")) {
            int start = c.pos;
            frac = c.number();
            for (int i = start; i < c.pos; i++) scale *= 10;
        }
        int u0 = c.pos;
        while (!c.atEnd() && Character.isLetter(c.peek())) c.pos++;
        Unit u = c.pos > u0 ? Unit.of(c.s.substring(u0, c.pos)) : null;
        if (u == null || !(u == Unit.B || u.binary() && u.symbol().endsWith("iB"))) {
            c.pos = u0;
            throw c.bad("expected a size unit (B, KiB, MiB, GiB)");
        }
        long unit = u.bytes();
        try {
            long bytes = Math.addExact(Math.multiplyExact(whole, unit), Math.multiplyExact(frac, unit) / scale);
            return new long[] {bytes, unit == 1 && scale == 1 ? 1 : 0};
        } catch (ArithmeticException e) {
            throw c.bad("size too large for 64 bits");
        }
    }
}
