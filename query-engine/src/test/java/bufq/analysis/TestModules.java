package bufq.analysis;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.HloModule;
import bufq.model.PeakClaim;
import bufq.model.Shape;
import bufq.model.StackTraceNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds small modules with the model constructors, for tests that must not depend on the reader. */
final class TestModules {
    private TestModules() {}

    /** Enough of XLA's shape syntax for tests: arrays with layout and tiles, tuples. */
    static Shape shape(String text) {
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
    static final class Builder {
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

        Builder(String name) { this.name = name; }

        Builder steps(String... names) {
            sequence.addAll(List.of(names));
            return this;
        }

        Builder alloc(int index, long size, int color, String kind) {
            allocs.add(new BufferAllocation(index, size, color, kind.equals("parameter") ? 0 : -1, null, null, null,
                    kind.equals("constant"), kind.equals("thread-local"), kind.equals("live-out"),
                    kind.equals("preallocated-temp"), null, true, List.of()));
            return this;
        }

        /** A value {@code name{index}} (index "" for none) in allocation {@code a}; range "s-e" or null. */
        Builder value(String label, int a, long offset, long size, String shape, String range) {
            return value(label, a, offset, size, shape, range, 0);
        }

        Builder value(String label, int a, long offset, long size, String shape, String range, int color) {
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

        Builder instruction(String name, String shape, String opcode, String opName, String file, int line) {
            instructions.add(new HloInstruction(name, sequence.indexOf(name), shape == null ? null : shape(shape), opcode,
                    List.of(), opName, file, line, ""));
            return this;
        }

        Builder claim(int time, boolean cumulative, PeakClaim.Entry... entries) {
            claim = new PeakClaim(time, List.of(entries), cumulative);
            return this;
        }

        Builder total(long t) { total = t; return this; }
        Builder backend(String b) { backend = b; return this; }
        Builder tree(StackTraceNode n, long bytes) { tree = n; treeBytes = bytes; return this; }

        HloModule build() {
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
            int maxTime = sequence.isEmpty() ? -1 : sequence.size();
            HloModule.Info info = new HloModule.Info(name, name, 0, backend, List.of(name + ".txt"), maxTime, total, claim,
                    treeBytes, tree, new TreeMap<>(), true, null);
            return new HloModule(info, as, values, ins, sequence, List.of());
        }
    }

    /**
     * The seed {@code 000}: XLA printed peak step 6 though step 1 already holds as many logical bytes,
     * because its moment counts tuple elements as whole tuples and values one step past their end.
     */
    static HloModule unstack() {
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
}
