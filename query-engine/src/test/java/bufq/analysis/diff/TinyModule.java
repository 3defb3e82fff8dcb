package bufq.analysis.diff;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.HloModule;
import bufq.model.PeakClaim;
import bufq.model.Shape;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Builds small modules by hand: one allocation per value unless told otherwise. */
final class TinyModule {
    private static final Pattern ARRAY = Pattern.compile("([a-z0-9]+)\\[([0-9,]*)\\](\\{([0-9,]*)\\})?");

    private final String handle;
    private final int maxTime;
    private final List<BufferAllocation> allocations = new ArrayList<>();
    private final List<HloValue> values = new ArrayList<>();
    private final List<HloInstruction> instructions = new ArrayList<>();
    private PeakClaim claim;
    private long nextId = 100;

    TinyModule(String handle, int maxTime) {
        this.handle = handle;
        this.maxTime = maxTime;
    }

    /** An array shape such as {@code f32[4,4]} or {@code f32[4,4]{0,1}}; no tiles. */
    static Shape shape(String text) {
        Matcher m = ARRAY.matcher(text);
        if (!m.matches()) throw new IllegalArgumentException(text);
        long[] dims = m.group(2).isEmpty() ? new long[0]
                : java.util.Arrays.stream(m.group(2).split(",")).mapToLong(Long::parseLong).toArray();
        int[] m2m = m.group(4) == null ? null : m.group(4).isEmpty() ? new int[0]
                : java.util.Arrays.stream(m.group(4).split(",")).mapToInt(Integer::parseInt).toArray();
        return new Shape(text, m.group(1), dims, false, m2m, List.of(), 0, 0, List.of());
    }

    /** A new allocation; returns its index. */
    int allocation(long size, int color, int parameter, boolean output, boolean constant, boolean threadLocal,
                   boolean maybeLiveOut) {
        int index = allocations.size();
        allocations.add(new BufferAllocation(index, size, color, parameter, parameter >= 0 ? shape("f32[1]") : null,
                parameter >= 0 ? "{}" : null, output ? shape("f32[1]") : null, constant, threadLocal, maybeLiveOut,
                false, null, true, List.of()));
        return index;
    }

    /** A value in an allocation of its own: kind is parameter, output, temp, constant or thread-local. */
    TinyModule value(String name, String shape, String kind, int start, int end, String opcode, String opName,
                     String file, int line) {
        Shape s = shape(shape);
        int alloc = switch (kind) {
            case "parameter" -> allocation(s.logicalBytes(), 0, allocations.size(), false, false, false, false);
            case "output" -> allocation(s.logicalBytes(), 0, -1, true, false, false, true);
            case "constant" -> allocation(s.logicalBytes(), 0, -1, false, true, false, false);
            case "thread-local" -> allocation(s.logicalBytes(), 0, -1, false, false, true, false);
            default -> allocation(s.logicalBytes(), 0, -1, false, false, false, false);
        };
        return valueIn(alloc, name, shape, 0, start, end, opcode, opName, file, line);
    }

    /** A value in an existing allocation; {@code start < 0} for no live range; {@code opcode == null} for no instruction. */
    TinyModule valueIn(int alloc, String name, String shape, int color, int start, int end, String opcode,
                       String opName, String file, int line) {
        Shape s = shape(shape);
        LiveRange r = start < 0 ? null : new LiveRange(start, end);
        values.add(new HloValue(nextId++, name, "{}", false, false, color, s.logicalBytes(), 0, alloc, s, List.of(),
                List.of(), r));
        if (opcode != null)
            instructions.add(new HloInstruction(name, Math.max(start, -1), s, opcode, List.of(), opName, file, line, ""));
        return this;
    }

    /** Temp with an op_name and no source. */
    TinyModule temp(String name, String shape, int start, int end, String opName) {
        return value(name, shape, "temp", start, end, "fusion", opName, null, -1);
    }

    TinyModule claim(int time, long bytes) {
        claim = new PeakClaim(time, List.of(new PeakClaim.Entry("x{}", bytes, bytes)), true);
        return this;
    }

    HloModule build() {
        HloModule.Info info = new HloModule.Info(handle, handle, 0, "cpu", List.of("/d/" + handle + "/f.txt"), maxTime,
                null, claim, -1, null, new TreeMap<>(), true, null);
        List<String> seq = new ArrayList<>();
        for (int t = 0; t <= maxTime; t++) seq.add("i" + t);
        return new HloModule(info, allocations, values, instructions, seq, List.of());
    }
}
