package bufq.dump.proto;

import bufq.dump.proto.Messages.Allocation;
import bufq.dump.proto.Messages.Assigned;
import bufq.dump.proto.Messages.Assignment;
import bufq.dump.proto.Messages.BufferAlias;
import bufq.dump.proto.Messages.Instruction;
import bufq.dump.proto.Messages.LogicalBuffer;
import bufq.dump.proto.Messages.HloModuleProto;
import bufq.dump.proto.Messages.StackIndex;
import bufq.model.BufferAllocation;
import bufq.model.HeapEvent;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloPosition;
import bufq.model.HloUse;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.LoadWarning;
import bufq.model.Shape;
import bufq.model.UsedValues;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Maps an {@code HloProto} (or a bare {@code BufferAssignmentProto}) to the model text dumps load
 * into: allocations and their values with sizes and offsets from the assignment; names, shapes,
 * op_name, source and whole stacks from the module; positions and uses from {@link Dataflow}; the
 * schedule and live ranges from {@link LiveRanges}; the heap-simulator trace as {@link HeapEvent}s.
 */
final class ModuleBuilder {
    private final String file;
    private final List<LoadWarning> warnings = new ArrayList<>();
    private final Shapes shapes = new Shapes();

    private ModuleBuilder(String file) {
        this.file = file;
    }

    /**
     * @param name    the module's name when the proto has none (a bare assignment: the file stem)
     * @param number  module number ({@code module_NNNN}, a profile's program id), or -1
     * @param backend {@code cpu}, {@code gpu}, {@code tpu} or {@code unknown}
     * @param format  what the module was read from ({@link HloModule.Info#format()})
     */
    static HloModule build(Messages.HloProto p, String file, String name, int number, String backend, String format) {
        return new ModuleBuilder(file).module(p, name, number, backend, format);
    }

    private void warn(String message) {
        warnings.add(new LoadWarning(file, 0, message));
    }

    private HloModule module(Messages.HloProto p, String fallbackName, int number, String backend, String format) {
        HloModuleProto m = p.module();
        Assignment a = p.assignment();
        Graph g = null;
        Dataflow d = null;
        LiveRanges lr = null;
        Map<Long, Integer> valueOfBuffer = new HashMap<>();
        if (m != null) {
            g = new Graph(m);
            d = new Dataflow(g);
            for (LogicalBuffer b : a.buffers()) {
                int i = g.number(b.instructionId());
                if (i < 0) continue;
                int v = d.valueAt(i, b.shapeIndex());
                if (v >= 0) valueOfBuffer.put(b.id(), v);
            }
            if (m.schedule().isEmpty()) warn("the module has no schedule: no live ranges");
            lr = new LiveRanges(g, d, m.schedule(), aliasGroups(a.aliases(), g, d, valueOfBuffer), valueOfBuffer, m.aliases());
        }
        // A bare BufferAssignmentProto (m == null) names no instructions and has no shapes, schedule or
        // live ranges: values are named #COMPUTATION.INSTRUCTION after their instruction id, shaped bytes[SIZE].

        Map<Long, LogicalBuffer> buffers = new HashMap<>();
        for (LogicalBuffer b : a.buffers()) buffers.put(b.id(), b);
        int rootInstruction = g == null || g.entry < 0 ? -1 : g.roots[g.entry];

        List<BufferAllocation> allocations = new ArrayList<>();
        List<HloValue> values = new ArrayList<>();
        // The instructions, and the values' positions and uses, are made on first use (as the text
        // reader leaves its Used values section for later): most queries need neither.
        List<Integer> dataflowValueOf = new ArrayList<>();   // per value slot: its dataflow value, or -1
        UsedValues.Deferred details = g == null ? null : deferred(g, d, lr, m.stacks(), dataflowValueOf);
        Map<Long, Integer> allocationOf = new HashMap<>();
        for (Allocation al : a.allocations()) {
            List<Long> ids = new ArrayList<>(al.assigned().size());
            boolean output = false;
            for (Assigned as : al.assigned()) {
                LogicalBuffer b = buffers.get(as.bufferId());
                ids.add(as.bufferId());
                allocationOf.put(as.bufferId(), (int) al.index());
                if (b == null) {
                    warn("allocation " + al.index() + " holds logical buffer " + as.bufferId() + ", which the assignment does not define");
                    continue;
                }
                HloValue v = value(b, as, (int) al.index(), g, d, lr, valueOfBuffer, details, values.size());
                values.add(v);
                Integer dfv = valueOfBuffer.get(b.id());
                dataflowValueOf.add(dfv == null || g == null ? -1 : dfv);
                if (rootInstruction >= 0 && d != null) {
                    Integer dv = valueOfBuffer.get(b.id());
                    if (dv != null) for (int[] pos : d.values.get(dv).positions) output |= pos[0] == rootInstruction && d.indexOf[pos[0]][pos[1]].length == 0;
                }
            }
            allocations.add(allocation(al, ids, output, g));
        }

        List<String> sequence = lr == null ? List.of() : lr.sequence;
        List<HeapEvent> events = events(a, buffers, allocationOf);

        String moduleName = m != null && !m.name().isEmpty() ? m.name() : fallbackName;
        HloModule.Info info = new HloModule.Info(moduleName, moduleName, number, backend, List.of(file),
                lr == null || sequence.isEmpty() ? -1 : lr.endTime, null, null, -1, null, new TreeMap<>(), m != null, null, format);
        if (details == null) return new HloModule(info, allocations, values, List.of(), sequence, warnings, warnings.size(), events);
        return new HloModule(info, allocations, values, sequence, warnings, warnings.size(), events, details);
    }

    /** The instructions and each value's positions and uses, from the dataflow, when first asked for. */
    private UsedValues.Deferred deferred(Graph g, Dataflow d, LiveRanges lr, StackIndex stacks, List<Integer> dataflowValueOf) {
        return new UsedValues.Deferred((values, sequence) -> {
            List<List<HloPosition>> positions = new ArrayList<>(values.size());
            List<List<HloUse>> uses = new ArrayList<>(values.size());
            for (int slot = 0; slot < values.size(); slot++) {
                int dv = dataflowValueOf.get(slot);
                if (dv < 0) {
                    positions.add(List.of());
                    uses.add(List.of());
                    continue;
                }
                Dataflow.Value val = d.values.get(dv);
                List<HloPosition> ps = new ArrayList<>(val.positions.size());
                for (int[] p : val.positions) ps.add(new HloPosition(g.name(p[0]), indexText(d.indexOf[p[0]][p[1]])));
                List<HloUse> us = new ArrayList<>(val.uses.size());
                for (Dataflow.Use u : val.uses) us.add(new HloUse(g.name(u.user()), u.operand(), indexText(u.index())));
                positions.add(ps);
                uses.add(us);
            }
            return new UsedValues(values, positions, uses, instructions(g, lr, stacks), List.of(), 0);
        });
    }

    private HloValue value(LogicalBuffer b, Assigned as, int allocation, Graph g, Dataflow d, LiveRanges lr,
                           Map<Long, Integer> valueOfBuffer, UsedValues.Deferred details, int slot) {
        String index = indexText(b.shapeIndex());
        if (g == null) {
            long iid = b.instructionId();
            String name = b.instructionName().isEmpty() ? "#" + (iid >>> 32) + "." + (iid & 0xffffffffL) : b.instructionName();
            Shape s = new Shape("bytes[" + b.size() + "]", "u8", new long[] {b.size()}, false, null, List.of(), 0, 0, List.of());
            return new HloValue(b.id(), name, index, b.shapeIndex().length > 0, false, (int) b.color(), as.size(),
                    as.offset(), allocation, s, List.of(), List.of(), null);
        }
        int i = g.number(b.instructionId());
        Instruction ins = i < 0 ? null : g.ins[i];
        String name = ins != null ? ins.name() : b.instructionName();
        if (ins == null) warn("logical buffer " + b.id() + " is defined at instruction id " + b.instructionId() + ", which the module lacks");
        Shape shape = ins == null ? null : shapes.shape(Graph.subshape(ins.shape(), b.shapeIndex()));
        if (shape == null) shape = new Shape("bytes[" + b.size() + "]", "u8", new long[] {b.size()}, false, null, List.of(), 0, 0, List.of());
        boolean indexPrinted = ins != null && Graph.isTupleShape(ins.shape());
        Integer dv = valueOfBuffer.get(b.id());
        LiveRange range = null;
        boolean phi = false;
        if (dv != null) {
            Dataflow.Value val = d.values.get(dv);
            phi = val.phiDefined;
            if (lr.start[dv] >= 0) range = new LiveRange(lr.start[dv], lr.end[dv]);
        } else if (ins != null) {
            warn("no value of the dataflow matches logical buffer " + b.id() + " (" + name + index + ")");
        }
        return HloValue.deferred(b.id(), name == null ? "" : name, index, indexPrinted, phi, (int) b.color(), as.size(),
                as.offset(), allocation, shape, range, details, slot);
    }

    private BufferAllocation allocation(Allocation al, List<Long> ids, boolean output, Graph g) {
        int parameter = al.entryParameter() ? (int) al.parameterNumber() : -1;
        Shape parameterShape = null;
        String shapeIndex = null;
        if (parameter >= 0) {
            shapeIndex = indexText(al.parameterShapeIndex());
            if (g != null && g.entry >= 0) {
                int p = g.parameter(g.entry, parameter);
                if (p >= 0) parameterShape = shapes.bare(Graph.subshape(g.ins[p].shape(), al.parameterShapeIndex()));
            }
        }
        Shape outputShape = output && g != null ? shapes.bare(g.ins[g.roots[g.entry]].shape()) : null;
        boolean plain = parameter < 0 && !al.constant() && !al.threadLocal() && !al.maybeLiveOut() && outputShape == null;
        return new BufferAllocation((int) al.index(), al.size(), (int) al.color(), parameter, parameterShape, shapeIndex,
                outputShape, al.constant(), al.threadLocal(), al.maybeLiveOut(), plain && !ids.isEmpty(), null, true, ids);
    }

    /** Values sharing a buffer: each alias joins its source buffer with the value defined at its location. */
    private static List<long[]> aliasGroups(List<BufferAlias> aliases, Graph g, Dataflow d, Map<Long, Integer> valueOfBuffer) {
        Map<Integer, Long> bufferOfValue = new HashMap<>();
        for (Map.Entry<Long, Integer> e : valueOfBuffer.entrySet()) bufferOfValue.put(e.getValue(), e.getKey());
        Map<Long, Long> parent = new HashMap<>();
        for (BufferAlias a : aliases) {
            int i = g.number(a.instructionId());
            if (i < 0) continue;
            int v = d.valueAt(i, a.shapeIndex());
            Long other = v < 0 ? null : bufferOfValue.get(v);
            if (other == null) continue;
            long x = find(parent, a.sourceId()), y = find(parent, other);
            if (x != y) parent.put(x, y);
        }
        Map<Long, List<Long>> groups = new HashMap<>();
        for (Long id : new ArrayList<>(parent.keySet())) groups.computeIfAbsent(find(parent, id), k -> new ArrayList<>()).add(id);
        List<long[]> out = new ArrayList<>();
        for (Map.Entry<Long, List<Long>> e : groups.entrySet()) {
            List<Long> ids = e.getValue();
            if (!ids.contains(e.getKey())) ids.add(e.getKey());
            out.add(ids.stream().mapToLong(Long::longValue).toArray());
        }
        return out;
    }

    private static long find(Map<Long, Long> parent, long x) {
        Long p = parent.get(x);
        if (p == null) {
            parent.putIfAbsent(x, x);
            return x;
        }
        if (p == x) return x;
        long r = find(parent, p);
        parent.put(x, r);
        return r;
    }

    /** Scheduled instructions by time, then the others in module order; fusion bodies left out as in text dumps. */
    private List<HloInstruction> instructions(Graph g, LiveRanges lr, StackIndex stacks) {
        List<HloInstruction> out = new ArrayList<>(g.size());
        HloInstruction[] byTime = new HloInstruction[lr.sequence.size()];
        List<HloInstruction> rest = new ArrayList<>();
        Map<Integer, List<String>> stackOf = new HashMap<>();
        for (int i = 0; i < g.size(); i++) {
            if (g.fusionBody[g.computationOf[i]]) continue;
            Instruction ins = g.ins[i];
            List<String> operands = new ArrayList<>(g.operands[i].length);
            for (int o : g.operands[i]) operands.add(o < 0 ? "?" : g.name(o));
            Messages.Metadata md = ins.metadata();
            List<String> stack = md.stackFrameId() > 0 ? stackOf.computeIfAbsent(md.stackFrameId(), f -> stack(stacks, f)) : List.of();
            String file = md.sourceFile().isEmpty() ? null : md.sourceFile();
            int line = md.sourceFile().isEmpty() ? -1 : md.sourceLine();
            if (file == null && md.stackFrameId() > 0) {
                int[] loc = innermost(stacks, md.stackFrameId());
                if (loc != null) {
                    file = at(stacks.files(), loc[0]);
                    line = loc[2];
                }
            }
            int t = lr.time[i];
            HloInstruction h = HloInstruction.withStack(ins.name(), t, shapes.shape(ins.shape()), ins.opcode(), operands,
                    md.opName().isEmpty() ? null : md.opName(), file, file == null ? -1 : line, "", null, stack);
            if (t >= 0) byTime[t] = h;
            else rest.add(h);
        }
        for (HloInstruction h : byTime) if (h != null) out.add(h);
        out.addAll(rest);
        return out;
    }

    /** The frames of {@code frameId} up to the outermost, printed outermost first. */
    private static List<String> stack(StackIndex s, int frameId) {
        List<String> frames = new ArrayList<>();
        int f = frameId;
        for (int guard = 0; f > 0 && f <= s.frames().size() && guard <= s.frames().size(); guard++) {
            int[] frame = s.frames().get(f - 1);
            int loc = frame[0];
            if (loc > 0 && loc <= s.locations().size()) {
                int[] l = s.locations().get(loc - 1);
                String fn = at(s.functions(), l[1]);
                frames.add(at(s.files(), l[0]) + ":" + l[2] + (fn == null ? "" : " (" + fn + ")"));
            }
            f = frame[1];
        }
        Collections.reverse(frames);
        return frames;
    }

    private static int[] innermost(StackIndex s, int frameId) {
        if (frameId <= 0 || frameId > s.frames().size()) return null;
        int loc = s.frames().get(frameId - 1)[0];
        return loc > 0 && loc <= s.locations().size() ? s.locations().get(loc - 1) : null;
    }

    private static String at(List<String> list, int oneBased) {
        return oneBased > 0 && oneBased <= list.size() ? list.get(oneBased - 1) : null;
    }

    /**
     * The traces' events in order. Heap bytes are counted per trace: an ALLOC adds the value's size;
     * a SHARE_WITH adds nothing while its canonical value holds the bytes, and takes them again when
     * that value was freed just before (XLA frees an in-place operand, then lets its output share
     * it); a FREE gives the bytes back once no value sharing them is left.
     */
    private static List<HeapEvent> events(Assignment a, Map<Long, LogicalBuffer> buffers, Map<Long, Integer> allocationOf) {
        List<HeapEvent> out = new ArrayList<>();
        int seq = 0;
        for (Messages.Trace t : a.traces()) {
            long heap = 0;
            Map<Long, Long> canonical = new HashMap<>();   // value -> the value whose bytes it holds
            Map<Long, Integer> holders = new HashMap<>();  // canonical value -> values holding its bytes
            for (Messages.Event e : t.events()) {
                LogicalBuffer b = buffers.get(e.bufferId());
                long size = b == null ? 0 : b.size();
                long bytes = 0;
                String kind;
                switch (e.kind()) {
                    case 0 -> {
                        kind = "ALLOC";
                        canonical.put(e.bufferId(), e.bufferId());
                        holders.merge(e.bufferId(), 1, Integer::sum);
                        bytes = size;
                    }
                    case 2 -> {
                        kind = "SHARE_WITH";
                        long c = canonical.getOrDefault(e.shareWith(), e.shareWith());
                        canonical.put(e.bufferId(), c);
                        // XLA frees an in-place operand just before its output shares it: the bytes come back.
                        if (holders.merge(c, 1, Integer::sum) == 1) {
                            LogicalBuffer cb = buffers.get(c);
                            bytes = cb == null ? size : cb.size();
                        }
                    }
                    default -> {
                        kind = "FREE";
                        long c = canonical.getOrDefault(e.bufferId(), e.bufferId());
                        int left = holders.merge(c, -1, Integer::sum);
                        if (left <= 0) {
                            LogicalBuffer cb = buffers.get(c);
                            bytes = -(cb == null ? size : cb.size());
                            holders.remove(c);
                        }
                        canonical.remove(e.bufferId());
                    }
                }
                heap += bytes;
                out.add(new HeapEvent(seq++, kind, e.bufferId(), e.instruction(), e.computation(), bytes, heap,
                        allocationOf.getOrDefault(e.bufferId(), -1), e.kind() == 2 ? e.shareWith() : -1));
            }
        }
        return out;
    }

    /** A shape index as XLA prints it: {@code {}}, {@code {0}}, {@code {1,2}}. */
    static String indexText(long[] index) {
        if (index.length == 0) return "{}";
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < index.length; i++) {
            if (i > 0) b.append(',');
            b.append(index[i]);
        }
        return b.append('}').toString();
    }

    static String indexText(int[] index) {
        long[] l = new long[index.length];
        for (int i = 0; i < index.length; i++) l[i] = index[i];
        return indexText(l);
    }
}
