package bufq.eval;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloPosition;
import bufq.model.HloUse;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.HloModule;
import bufq.model.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/** Small modules built with the model constructors, so the language tests need no dump reader. */
final class TestModules {
    private TestModules() {}

    static Shape array(String text, String dtype, long[] dims, int[] m2m, long[] tile, int space) {
        return new Shape(text, dtype, dims, false, m2m, tile == null ? List.of() : List.<long[]>of(tile), 0, space, List.of());
    }

    static Shape plain(String dtype, long... dims) {
        StringBuilder t = new StringBuilder(dtype).append('[');
        for (int i = 0; i < dims.length; i++) t.append(i > 0 ? "," : "").append(dims[i]);
        return new Shape(t.append(']').toString(), dtype, dims, false, null, List.of(), 0, 0, List.of());
    }

    static HloModule.Info info(String handle, int maxTime) {
        return new HloModule.Info(handle, handle, 0, "tpu", List.of(), maxTime, null, null, -1, null,
                new TreeMap<>(), true, null);
    }

    static HloValue value(long id, String name, String index, int color, long size, long offset, int alloc, Shape shape,
                          LiveRange range, List<HloUse> uses) {
        boolean printed = !index.equals("{}");
        return new HloValue(id, name, index, printed, false, color, size, offset, alloc, shape,
                List.of(new HloPosition(name, index)), uses, range);
    }

    static BufferAllocation alloc(int index, long size, int color, int parameter, boolean liveOut, boolean threadLocal,
                                  Shape output, List<Long> ids) {
        return new BufferAllocation(index, size, color, parameter, parameter >= 0 ? plain("f32", 1) : null,
                parameter >= 0 ? "{}" : null, output, false, threadLocal, liveOut, false, null, true, ids);
    }

    static HloInstruction ins(String name, int time, Shape shape, String opcode, String opName, List<String> operands) {
        return new HloInstruction(name, time, shape, opcode, operands, opName, opName == null ? null : "model.py",
                opName == null ? -1 : 10 + Math.max(time, 0), "");
    }

    /**
     * Six steps and a live-out point (max time 6):
     * <pre>
     * t  instruction  value (id, colour, logical bytes, range)
     * 0  p0           0  c0  4096   0-6   f32[16,64]{1,0:T(8,128)}   padded 8192
     * 1  p1           1  c0  1024   1-3   f32[256]
     * 2  fusion.1     2  c1  4096   2-3   f32[8,128]{1,0:T(8,128)}
     * 3  fusion.2     3  c1    32   3-4   bf16[4,4]
     * 4  copy.3       4  c0  8192   4-6   f32[64,32]{0,1:T(8,128)}   padded 16384
     * 5  tuple.4      5  c0     8   5-6   (f32[64,32])
     * -  add.9        6  c0     4   none  u32[]{:T(128)} (thread-local)
     * </pre>
     */
    static HloModule toy() {
        Shape s0 = array("f32[16,64]{1,0:T(8,128)}", "f32", new long[] {16, 64}, new int[] {1, 0}, new long[] {8, 128}, 0);
        Shape s1 = plain("f32", 256);
        Shape s2 = array("f32[8,128]{1,0:T(8,128)S(1)}", "f32", new long[] {8, 128}, new int[] {1, 0}, new long[] {8, 128}, 1);
        Shape s3 = plain("bf16", 4, 4);
        Shape s4 = array("f32[64,32]{0,1:T(8,128)}", "f32", new long[] {64, 32}, new int[] {0, 1}, new long[] {8, 128}, 0);
        Shape s5 = new Shape("(f32[64,32]{0,1:T(8,128)})", "tuple", new long[0], false, null, List.of(), 0, 0, List.of(s4));
        Shape s6 = array("u32[]{:T(128)}", "u32", new long[0], new int[0], new long[] {128}, 0);
        List<HloValue> values = List.of(
                value(0, "p0", "{}", 0, 8192, 0, 0, s0, new LiveRange(0, 6), List.of(new HloUse("fusion.1", 0, "{}"))),
                value(1, "p1", "{}", 0, 1024, 0, 1, s1, new LiveRange(1, 3), List.of(new HloUse("fusion.1", 1, "{}"))),
                value(2, "fusion.1", "{}", 1, 4096, 0, 2, s2, new LiveRange(2, 3), List.of(new HloUse("fusion.2", 0, "{}"))),
                value(3, "fusion.2", "{}", 1, 32, 4096, 2, s3, new LiveRange(3, 4), List.of(new HloUse("copy.3", 0, "{}"))),
                value(4, "copy.3", "{}", 0, 16384, 0, 3, s4, new LiveRange(4, 6), List.of(new HloUse("tuple.4", 0, "{}"))),
                value(5, "tuple.4", "{}", 0, 8, 0, 4, s5, new LiveRange(5, 6), List.of()),
                value(6, "add.9", "{}", 0, 512, 0, 5, s6, null, List.of()));
        List<BufferAllocation> allocs = List.of(
                alloc(0, 8192, 0, 0, false, false, null, List.of(0L)),
                alloc(1, 1024, 0, 1, false, false, null, List.of(1L)),
                alloc(2, 4128, 1, -1, false, false, null, List.of(2L, 3L)),
                alloc(3, 16384, 0, -1, true, false, null, List.of(4L)),
                alloc(4, 8, 0, -1, true, false, s5, List.of(5L)),
                alloc(5, 512, 0, -1, false, true, null, List.of(6L)));
        List<HloInstruction> ins = List.of(
                ins("p0", 0, s0, "parameter", null, List.of()),
                ins("p1", 1, s1, "parameter", null, List.of()),
                ins("fusion.1", 2, s2, "fusion", "jit(f)/softmax", List.of("p0", "p1")),
                ins("fusion.2", 3, s3, "fusion", "jit(f)/dot_general", List.of("fusion.1")),
                ins("copy.3", 4, s4, "copy", "jit(f)/copy", List.of("fusion.2")),
                ins("tuple.4", 5, s5, "tuple", null, List.of("copy.3")),
                ins("add.9", -1, s6, "add", null, List.of()));
        return new HloModule(info("toy", 6), allocs, values, ins,
                List.of("p0", "p1", "fusion.1", "fusion.2", "copy.3", "tuple.4"), List.of());
    }

    /** A module of {@code n} values with random ranges over {@code steps} steps, colours 0..2. */
    static HloModule random(long seed, int n, int steps) {
        Random r = new Random(seed);
        List<HloValue> values = new ArrayList<>();
        List<BufferAllocation> allocs = new ArrayList<>();
        List<HloInstruction> ins = new ArrayList<>();
        List<String> seq = new ArrayList<>();
        for (int t = 0; t < steps; t++) {
            seq.add("op." + t);
            ins.add(ins("op." + t, t, plain("f32", 4), t % 3 == 0 ? "fusion" : "copy", "jit(f)/op" + t, List.of()));
        }
        for (int i = 0; i < n; i++) {
            long dim = 1 + r.nextInt(4096);
            Shape s = plain(r.nextBoolean() ? "f32" : "bf16", dim);
            LiveRange range = r.nextInt(20) == 0 ? null : rangeOf(r, steps);
            int color = r.nextInt(3);
            String name = "op." + (range == null ? r.nextInt(steps) : range.start());
            values.add(value(i * 2L + 1, name, "{" + i + "}", color, s.logicalBytes(), 0, i, s, range, List.of()));
            allocs.add(alloc(i, s.logicalBytes(), color, -1, false, false, null, List.of(i * 2L + 1)));
        }
        return new HloModule(info("random" + seed, steps), allocs, values, ins, seq, List.of());
    }

    private static LiveRange rangeOf(Random r, int steps) {
        int a = r.nextInt(steps + 1);
        int b = Math.min(steps, a + r.nextInt(Math.max(1, steps / 4)));
        return new LiveRange(a, b);
    }
}
