package bufq.analysis.liveness;

import bufq.model.HloModule;
import bufq.model.MemorySpace;

import java.util.List;
import java.util.OptionalInt;

/** The schedule's steps and colours as every report names and checks them. */
public final class Steps {
    private Steps() {}

    /** The instruction at step {@code t}, {@code (end)} for the step after the last, else null. */
    public static String instructionAt(HloModule m, int t) {
        List<String> seq = m.sequence();
        return t >= 0 && t < seq.size() ? seq.get(t) : (t >= 0 && t == m.steps() - 1 ? "(end)" : null);
    }

    /** Occupied bytes at every step for one colour or all. */
    public static long[] occupied(HloModule m, OptionalInt color) {
        return Liveness.of(m).occupiedBytesByStep(color);
    }

    /**
     * The colour a report of {@code color} keeps values of: that colour, else the device memory's
     * (colour 0) when the module has other spaces too, else -1 (every value: one memory).
     */
    public static int spaceFilter(HloModule m, OptionalInt color) {
        if (color.isPresent()) return color.getAsInt();
        List<Integer> cs = Liveness.of(m).colors();
        return cs.size() > 1 && cs.contains(MemorySpace.DEVICE) ? MemorySpace.DEVICE : -1;
    }

    /** What a report of one colour says when no value of that colour has a live range. */
    public static String noPeakOfColor(int color) {
        return "no value of color " + color + " has a live range, so color " + color + " has no peak\n";
    }

    /**
     * Rejects a colour the module does not use, so a typo is an error rather than an empty chart.
     *
     * @throws IllegalArgumentException naming the colours the module has
     */
    public static void requireColor(HloModule m, OptionalInt color) {
        if (color.isPresent() && !Liveness.of(m).colors().contains(color.getAsInt())) {
            throw new IllegalArgumentException("no color " + color.getAsInt() + " in " + m.handle() + " (memory spaces: "
                    + MemorySpace.list(m) + ")");
        }
    }
}
