package bufq.testing;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloModuleBuilder;
import bufq.model.HloPosition;
import bufq.model.HloUse;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.PeakClaim;
import bufq.model.Shape;
import bufq.model.StackTraceNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The one place tests build small modules with the model constructors, so they need no dump reader:
 * part helpers ({@link #shape}, {@link #plain}, {@link #value}, {@link #alloc}, {@link #ins}), ready
 * modules ({@link #toy}, {@link #random}, {@link #unstack}), and two builders: {@link Builder} (named
 * steps, allocations by index, values placed in them) and {@link Tiny} (numbered steps, one allocation
 * per value unless told otherwise).
 */
public final class TestModules {
    private TestModules() {}

    public static Shape array(String text, String dtype, long[] dims, int[] m2m, long[] tile, int space) {
        return new Shape(text, dtype, dims, false, m2m, tile == null ? List.of() : List.<long[]>of(tile), 0, space, List.of());
    }

    public static Shape plain(String dtype, long... dims) {
        StringBuilder t = new StringBuilder(dtype).append('[');
        for (int i = 0; i < dims.length; i++) t.append(i > 0 ? "," : "").append(dims[i]);
        return new Shape(t.append(']').toString(), dtype, dims, false, null, List.of(), 0, 0, List.of());
    }

    public static HloModule.Info info(String handle, int maxTime) {
        return new HloModule.Info(handle, handle, 0, "tpu", List.of(), maxTime, null, null, -1, null,
                new TreeMap<>(), true, null);
    }

    public static HloValue value(long id, String name, String index, int color, long size, long offset, int alloc, Shape shape,
                          LiveRange range, List<HloUse> uses) {
        boolean printed = !index.equals("{}");
        return new HloValue(id, name, index, printed, false, color, size, offset, alloc, shape,
                List.of(new HloPosition(name, index)), uses, range);
    }

    public static BufferAllocation alloc(int index, long size, int color, int parameter, boolean liveOut, boolean threadLocal,
                                  Shape output, List<Long> ids) {
        return new BufferAllocation(index, size, color, parameter, parameter >= 0 ? plain("f32", 1) : null,
                parameter >= 0 ? "{}" : null, output, false, threadLocal, liveOut, false, null, true, ids);
    }

    public static HloInstruction ins(String name, int time, Shape shape, String opcode, String opName, List<String> operands) {
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
    public static HloModule toy() {
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
        return new HloModuleBuilder(info("toy", 6)).allocations(allocs).values(values).instructions(ins)
                .sequence(List.of("p0", "p1", "fusion.1", "fusion.2", "copy.3", "tuple.4")).build();
    }

    /** A module of {@code n} values with random ranges over {@code steps} steps, colours 0..2. */
    public static HloModule random(long seed, int n, int steps) {
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
        return new HloModuleBuilder(info("random" + seed, steps)).allocations(allocs).values(values).instructions(ins)
                .sequence(seq).build();
    }

    private static LiveRange rangeOf(Random r, int steps) {
        int a = r.nextInt(steps + 1);
        int b = Math.min(steps, a + r.nextInt(Math.max(1, steps / 4)));
        return new LiveRange(a, b);
    }

    /** Enough of XLA's shape syntax for tests: arrays with layout and tiles, tuples. */
    public static Shape shape(String text) {
        text = text.trim();
        if (text.startsWith("(")) {
            List<Shape> elems = new ArrayList<>();
            int depth = 0, from = 1;
            for (int i = 1; i < text.length() - 1; i++) {
                char c = text.charAt(i);
                if (c == '(' || c == '[' || c == '{') depth++;
                else if (c == ')' || c == ']' || c == '}') depth--;
                else if (c == ',' && depth == 0) {
                    elems.add(shape(text.substring(from, i)));
                    from = i + 1;
                }
            }
            if (text.length() > 2) elems.add(shape(text.substring(from, text.length() - 1)));
            return new Shape(text, "tuple", new long[0], false, null, List.of(), 0, 0, elems);
        }
        int lb = text.indexOf('['), rb = text.indexOf(']');
        String dtype = text.substring(0, lb);
        String dimText = text.substring(lb + 1, rb);
        long[] dims = dimText.isEmpty() ? new long[0]
                : java.util.Arrays.stream(dimText.split(",")).mapToLong(s -> Long.parseLong(s.trim())).toArray();
        int[] m2m = null;
        List<long[]> tiles = new ArrayList<>();
        int memSpace = 0;
        int lc = text.indexOf('{', rb);
        if (lc >= 0) {
            String layout = text.substring(lc + 1, text.lastIndexOf('}'));
            String order = layout.contains(":") ? layout.substring(0, layout.indexOf(':')) : layout;
            m2m = order.isEmpty() ? new int[0] : java.util.Arrays.stream(order.split(",")).mapToInt(Integer::parseInt).toArray();
            if (layout.contains(":")) {
                String attrs = layout.substring(layout.indexOf(':') + 1);
                java.util.regex.Matcher t = java.util.regex.Pattern.compile("T((?:\\([0-9,]+\\))+)").matcher(attrs);
                if (t.find()) {
                    java.util.regex.Matcher one = java.util.regex.Pattern.compile("\\(([0-9,]+)\\)").matcher(t.group(1));
                    while (one.find()) tiles.add(java.util.Arrays.stream(one.group(1).split(",")).mapToLong(Long::parseLong).toArray());
                }
                java.util.regex.Matcher s = java.util.regex.Pattern.compile("S\\((\\d+)\\)").matcher(attrs);
                if (s.find()) memSpace = Integer.parseInt(s.group(1));
            }
        }
        return new Shape(text, dtype, dims, false, m2m, tiles, 0, memSpace, List.of());
    }

    /** Fluent builder: allocations, values with ranges, instructions; the sequence comes from {@link #steps}. */
    public static final class Builder {
        private final String name;
        private final List<BufferAllocation> allocs = new ArrayList<>();
        private final Map<Integer, List<Long>> ids = new TreeMap<>();
        private final List<HloValue> values = new ArrayList<>();
        private final List<HloInstruction> instructions = new ArrayList<>();
        private final List<String> sequence = new ArrayList<>();
        private PeakClaim claim;
        private Long total;
        private StackTraceNode tree;
        private long treeBytes = -1;
        private String backend = "cpu";
        private long nextId;
        private Integer maxTime;
        private List<String> files;

        public Builder(String name) { this.name = name; }

        public Builder steps(String... names) {
            sequence.addAll(List.of(names));
            return this;
        }

        public Builder alloc(int index, long size, int color, String kind) {
            allocs.add(new BufferAllocation(index, size, color, kind.equals("parameter") ? 0 : -1, null, null, null,
                    kind.equals("constant"), kind.equals("thread-local"), kind.equals("live-out"),
                    kind.equals("preallocated-temp"), null, true, List.of()));
            return this;
        }

        /** A value {@code name{index}} (index "" for none) in allocation {@code a}; range "s-e" or null. */
        public Builder value(String label, int a, long offset, long size, String shape, String range) {
            return value(label, a, offset, size, shape, range, 0);
        }

        public Builder value(String label, int a, long offset, long size, String shape, String range, int color) {
            String name = label.contains("{") ? label.substring(0, label.indexOf('{')) : label;
            String index = label.contains("{") ? label.substring(label.indexOf('{')) : "{}";
            LiveRange r = null;
            if (range != null) {
                String[] p = range.split("-");
                r = new LiveRange(Integer.parseInt(p[0]), Integer.parseInt(p[1]));
            }
            long id = nextId++;
            values.add(new HloValue(id, name, index, label.contains("{"), false, color, size, offset, a, shape(shape),
                    List.of(), List.of(), r));
            ids.computeIfAbsent(a, k -> new ArrayList<>()).add(id);
            return this;
        }

        public Builder instruction(String name, String shape, String opcode, String opName, String file, int line) {
            instructions.add(new HloInstruction(name, sequence.indexOf(name), shape == null ? null : shape(shape), opcode,
                    List.of(), opName, file, line, ""));
            return this;
        }

        /** An instruction with its attribute text ({@code output_to_operand_aliasing={...}, calls=...}). */
        public Builder instruction(String name, String shape, String opcode, String attributes) {
            instructions.add(new HloInstruction(name, sequence.indexOf(name), shape == null ? null : shape(shape), opcode,
                    List.of(), null, null, -1, attributes));
            return this;
        }

        public Builder claim(int time, boolean cumulative, PeakClaim.Entry... entries) {
            claim = new PeakClaim(time, List.of(entries), cumulative);
            return this;
        }

        public Builder total(long t) { total = t; return this; }
        public Builder backend(String b) { backend = b; return this; }
        /** The module's max time; without it, the number of steps. */
        public Builder maxTime(int t) { maxTime = t; return this; }
        /** The dump files the module names; without it, {@code NAME.txt}. */
        public Builder files(String... f) { files = List.of(f); return this; }
        /** The id of the next value (ids count up from 0 unless told). */
        public Builder firstId(long id) { nextId = id; return this; }
        public Builder tree(StackTraceNode n, long bytes) { tree = n; treeBytes = bytes; return this; }

        public HloModule build() {
            List<BufferAllocation> as = new ArrayList<>();
            for (BufferAllocation a : allocs) {
                as.add(new BufferAllocation(a.index(), a.size(), a.color(), a.parameter(), a.parameterShape(),
                        a.shapeIndex(), a.outputShape(), a.constant(), a.threadLocal(), a.maybeLiveOut(),
                        a.preallocatedTemp(), a.pointer(), a.sizeExact(), ids.getOrDefault(a.index(), List.of())));
            }
            List<HloInstruction> ins = new ArrayList<>(instructions);
            java.util.Set<String> named = new java.util.HashSet<>();
            for (HloInstruction i : ins) named.add(i.name());
            for (int t = 0; t < sequence.size(); t++) {
                if (named.add(sequence.get(t))) ins.add(HloInstruction.sequenced(sequence.get(t), t));
            }
            int maxTime = this.maxTime != null ? this.maxTime : sequence.isEmpty() ? -1 : sequence.size();
            List<String> files = this.files != null ? this.files : List.of(name + ".txt");
            HloModule.Info info = new HloModule.Info(name, name, 0, backend, files, maxTime, total, claim,
                    treeBytes, tree, new TreeMap<>(), true, null);
            return new HloModuleBuilder(info).allocations(as).values(values).instructions(ins).sequence(sequence).build();
        }
    }

    /**
     * The seed {@code 000}: XLA printed peak step 6 though step 1 already holds as many logical bytes,
     * because its moment counts tuple elements as whole tuples and values one step past their end.
     */
    public static HloModule unstack() {
        String el = "u32[2]{0:T(128)}";
        String tup = "(" + el + ", " + el + ", " + el + ", " + el + ")";
        return new Builder("jit__unstack")
                .steps("Arg_0.1", "slice_reduce_fusion", "get-tuple-element.3", "get-tuple-element.2",
                        "get-tuple-element.1", "get-tuple-element", "tuple.10")
                .alloc(0, 1024, 0, "parameter").alloc(1, 512, 0, "live-out").alloc(2, 512, 0, "live-out")
                .alloc(3, 512, 0, "live-out").alloc(4, 512, 0, "live-out").alloc(5, 32, 0, "live-out")
                .alloc(6, 32, 0, "preallocated-temp")
                .value("Arg_0.1", 0, 0, 1024, "u32[4,2]{0,1:T(2,128)}", "0-7")
                .value("slice_reduce_fusion{0}", 1, 0, 512, el, "1-7")
                .value("slice_reduce_fusion{1}", 2, 0, 512, el, "1-7")
                .value("slice_reduce_fusion{2}", 3, 0, 512, el, "1-7")
                .value("slice_reduce_fusion{3}", 4, 0, 512, el, "1-7")
                .value("tuple.10{}", 5, 0, 32, tup, "6-7")
                .value("slice_reduce_fusion{}", 6, 0, 32, tup, "1-5")
                .instruction("Arg_0.1", "u32[4,2]{0,1:T(2,128)}", "parameter", "x", null, -1)
                .instruction("slice_reduce_fusion", tup, "fusion", "jit(_unstack)/jit(main)/split", "/tmp/u.py", 12)
                .instruction("tuple.10", tup, "tuple", null, null, -1)
                .claim(6, true, new PeakClaim.Entry("Arg_0.1{}", 32, 32), new PeakClaim.Entry("tuple.10{}", 32, 64),
                        new PeakClaim.Entry("slice_reduce_fusion{0}", 8, 72), new PeakClaim.Entry("slice_reduce_fusion{1}", 8, 80),
                        new PeakClaim.Entry("slice_reduce_fusion{2}", 8, 88), new PeakClaim.Entry("slice_reduce_fusion{3}", 8, 96))
                .total(1024 + 4 * 512 + 32 + 32)
                .backend("tpu")
                .build();
    }

    public static final class Tiny {
        private final String handle;
        private final int maxTime;
        private final List<BufferAllocation> allocations = new ArrayList<>();
        private final List<HloValue> values = new ArrayList<>();
        private final List<HloInstruction> instructions = new ArrayList<>();
        private PeakClaim claim;
        private long nextId = 100;
        private int number;

        public Tiny(String handle, int maxTime) {
            this.handle = handle;
            this.maxTime = maxTime;
        }

        /** A new allocation; returns its index. */
        public int allocation(long size, int color, int parameter, boolean output, boolean constant, boolean threadLocal,
                       boolean maybeLiveOut) {
            int index = allocations.size();
            allocations.add(new BufferAllocation(index, size, color, parameter, parameter >= 0 ? shape("f32[1]") : null,
                    parameter >= 0 ? "{}" : null, output ? shape("f32[1]") : null, constant, threadLocal, maybeLiveOut,
                    false, null, true, List.of()));
            return index;
        }

        /** A value in an allocation of its own: kind is parameter, output, temp, constant or thread-local. */
        public Tiny value(String name, String shape, String kind, int start, int end, String opcode, String opName,
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
        public Tiny valueIn(int alloc, String name, String shape, int color, int start, int end, String opcode,
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
        public Tiny temp(String name, String shape, int start, int end, String opName) {
            return value(name, shape, "temp", start, end, "fusion", opName, null, -1);
        }

        /** The module's number in its dump directory (0 unless told). */
        public Tiny number(int n) {
            number = n;
            return this;
        }

        public Tiny claim(int time, long bytes) {
            claim = new PeakClaim(time, List.of(new PeakClaim.Entry("x{}", bytes, bytes)), true);
            return this;
        }

        public HloModule build() {
            HloModule.Info info = new HloModule.Info(handle, handle, number, "cpu", List.of("/d/" + handle + "/f.txt"), maxTime,
                    null, claim, -1, null, new TreeMap<>(), true, null);
            List<String> seq = new ArrayList<>();
            for (int t = 0; t <= maxTime; t++) seq.add("i" + t);
            return new HloModuleBuilder(info).allocations(allocations).values(values).instructions(instructions)
                    .sequence(seq).build();
        }
    }
}
