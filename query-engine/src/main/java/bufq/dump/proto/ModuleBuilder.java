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
import bufq.model.HloModuleBuilder;
import bufq.model.HloPosition;
import bufq.model.HloUse;
import bufq.model.HloValue;
import bufq.util.IdTable;
import bufq.model.LiveRange;
import bufq.model.LoadWarning;
import bufq.util.LongList;
import bufq.model.Shape;
import bufq.model.UsedValues;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Maps an {@code HloProto} (or a bare {@code BufferAssignmentProto}) to the model text dumps load
 * into: allocations and their values with sizes and offsets from the assignment; names, shapes,
 * op_name, source and whole stacks from the module; positions and uses from {@link Dataflow}; the
 * schedule and live ranges from {@link LiveRanges}; the heap-simulator trace as {@link HeapEvent}s.
 */
final class ModuleBuilder {
    private final String file;
    private final List<LoadWarning> warnings = new ArrayList<>();
    private final Shapes shapes;
    /** The assignment's copied names (logical buffers' instructions, events'): {@link Messages.Event#name}. */
    private byte[] names;

    private ModuleBuilder(String file, Shapes shapes) {
        this.file = file;
        this.shapes = shapes;
    }

    /**
     * @param name    the module's name when the proto has none (a bare assignment: the file stem)
     * @param number  module number ({@code module_NNNN}, a profile's program id), or -1
     * @param backend {@code cpu}, {@code gpu}, {@code tpu} or {@code unknown}
     * @param format  what the module was read from ({@link HloModule.Info#format()})
     */
    static HloModule build(Messages.HloProto p, String file, String name, int number, String backend, String format,
                           UsageReport report) {
        return new ModuleBuilder(file, p.module() == null ? new Shapes() : p.module().shapes())
                .module(p, name, number, backend, format, report);
    }

    private void warn(String message) {
        warnings.add(new LoadWarning(file, 0, message));
    }

    private HloModule module(Messages.HloProto p, String fallbackName, int number, String backend, String format,
                             UsageReport report) {
        HloModuleProto m = p.module();
        Assignment a = p.assignment();
        names = a.eventNames();
        List<LogicalBuffer> bufferList = a.buffers();
        // Logical buffers by id; each buffer's dataflow value and allocation by its position in the list.
        IdTable bufferById = new IdTable(bufferList.size());
        for (int k = 0; k < bufferList.size(); k++) bufferById.put(bufferList.get(k).id(), k);
        int[] valueOfBuffer = new int[bufferList.size()];
        Arrays.fill(valueOfBuffer, -1);
        Graph g = null;
        Dataflow d = null;
        LiveRanges lr = null;
        if (m != null) {
            g = new Graph(m);
            d = new Dataflow(g);
            for (int k = 0; k < bufferList.size(); k++) {
                LogicalBuffer b = bufferList.get(k);
                int i = g.number(b.instructionId());
                if (i >= 0) valueOfBuffer[bufferById.get(b.id())] = d.valueAt(i, b.shapeIndex());
            }
            if (m.schedule().isEmpty()) warn("the module has no schedule: no live ranges");
            lr = new LiveRanges(g, d, m.schedule(), aliasGroups(a.aliases(), g, d, bufferList, bufferById, valueOfBuffer),
                    m.aliases());
        }
        // A bare BufferAssignmentProto (m == null) names no instructions and has no shapes, schedule or
        // live ranges: values are named #COMPUTATION.INSTRUCTION after their instruction id, shaped bytes[SIZE].

        int rootInstruction = g == null || g.entry < 0 ? -1 : g.roots[g.entry];

        List<BufferAllocation> allocations = new ArrayList<>();
        List<HloValue> values = new ArrayList<>();
        // The instructions, and the values' positions and uses, are made on first use (as the text
        // reader leaves its Used values section for later): most queries need neither.
        int total = 0;
        for (Allocation al : a.allocations()) total += al.assigned().size();
        int[] dataflowValueOf = new int[total];   // per value slot: its dataflow value, or -1
        UsedValues.Handle details = g == null ? null : deferred(g, d, lr, m.stacks(), dataflowValueOf);
        int[] allocationOf = new int[bufferList.size()];
        Arrays.fill(allocationOf, -1);
        for (Allocation al : a.allocations()) {
            long[] ids = new long[al.assigned().size()];
            int n = 0;
            boolean output = false;
            for (Assigned as : al.assigned()) {
                int k = bufferById.get(as.bufferId());
                ids[n++] = as.bufferId();
                if (k < 0) {
                    warn("allocation " + al.index() + " holds logical buffer " + as.bufferId() + ", which the assignment does not define");
                    continue;
                }
                allocationOf[k] = (int) al.index();
                LogicalBuffer b = bufferList.get(k);
                int dv = valueOfBuffer[k];
                HloValue v = value(b, as, (int) al.index(), g, d, lr, dv, details, values.size());
                dataflowValueOf[values.size()] = g == null ? -1 : dv;
                values.add(v);
                if (rootInstruction >= 0 && dv >= 0) {
                    for (int[] pos : d.values.get(dv).positions) output |= pos[0] == rootInstruction && d.indexOf[pos[0]][pos[1]].length == 0;
                }
            }
            allocations.add(allocation(al, LongList.of(ids), output, g));
        }

        List<String> sequence = lr == null ? List.of() : lr.sequence;
        List<Messages.Trace> traces = a.traces();
        byte[] eventNames = a.eventNames();
        Supplier<List<HeapEvent>> events = () -> events(traces, eventNames, bufferList, bufferById, allocationOf);

        String moduleName = m != null && !m.name().isEmpty() ? m.name() : fallbackName;
        // The report proto read beside it gives what the text set's report does: each memory space's total.
        List<String> files = report == null ? List.of(file) : List.of(file, report.file());
        HloModule.Info info = new HloModule.Info(moduleName, moduleName, number, backend, files,
                lr == null || sequence.isEmpty() ? -1 : lr.endTime, null, null, -1, null,
                report == null ? new TreeMap<>() : report.colorTotals(), m != null, null, format, null, null, null);
        if (details == null) {
            return new HloModuleBuilder(info).allocations(allocations).values(values).sequence(sequence).warnings(warnings)
                    .heapEvents(events)
                    .details(UsedValues.Handle.of(new UsedValues(List.of(), List.of(), List.of(), List.of(), List.of(), 0)))
                    .build();
        }
        return new HloModuleBuilder(info).allocations(allocations).values(values).sequence(sequence).warnings(warnings)
                .heapEvents(events).details(details).build();
    }

    /** The instructions and each value's positions and uses, from the dataflow, when first asked for. */
    private UsedValues.Handle deferred(Graph g, Dataflow d, LiveRanges lr, StackIndex stacks, int[] dataflowValueOf) {
        return new UsedValues.Handle((values, sequence) -> {
            List<List<HloPosition>> positions = new ArrayList<>(values.size());
            List<List<HloUse>> uses = new ArrayList<>(values.size());
            for (int slot = 0; slot < values.size(); slot++) {
                int dv = dataflowValueOf[slot];
                if (dv < 0) {
                    positions.add(List.of());
                    uses.add(List.of());
                    continue;
                }
                FlowValue val = d.values.get(dv);
                List<HloPosition> ps = new ArrayList<>(val.positions.size());
                for (int[] p : val.positions) ps.add(new HloPosition(g.name(p[0]), indexText(d.indexOf[p[0]][p[1]])));
                List<HloUse> us = new ArrayList<>(val.uses.size());
                for (FlowValue.Use u : val.uses) us.add(new HloUse(g.name(u.user()), u.operand(), indexText(u.index())));
                positions.add(ps);
                uses.add(us);
            }
            List<LoadWarning> unread = new ArrayList<>();
            List<HloInstruction> instructions = instructions(g, lr, stacks, unread);
            return new UsedValues(values, positions, uses, instructions, unread.size() > MAX_WARNINGS
                    ? unread.subList(0, MAX_WARNINGS) : unread, unread.size());
        });
    }

    /** @param dv the logical buffer's dataflow value, or -1 */
    private HloValue value(LogicalBuffer b, Assigned as, int allocation, Graph g, Dataflow d, LiveRanges lr,
                           int dv, UsedValues.Handle details, int slot) {
        String index = indexText(b.shapeIndex());
        if (g == null) {
            long iid = b.instructionId();
            String named = Messages.Event.name(names, b.instructionName());
            String name = named.isEmpty() ? "#" + (iid >>> 32) + "." + (iid & 0xffffffffL) : named;
            Shape s = new Shape("bytes[" + b.size() + "]", "u8", new long[] {b.size()}, false, null, List.of(), 0, 0, List.of());
            return new HloValue(b.id(), name, index, b.shapeIndex().length > 0, false, (int) b.color(), as.size(),
                    as.offset(), allocation, s, List.of(), List.of(), null);
        }
        int i = g.number(b.instructionId());
        Instruction ins = i < 0 ? null : g.ins[i];
        String name = ins != null ? ins.name() : Messages.Event.name(names, b.instructionName());
        if (ins == null) warn("logical buffer " + b.id() + " is defined at instruction id " + b.instructionId() + ", which the module lacks");
        Shape shape = ins == null ? null : shapes.shape(Graph.subshape(ins.shape(), b.shapeIndex()));
        if (shape == null) shape = new Shape("bytes[" + b.size() + "]", "u8", new long[] {b.size()}, false, null, List.of(), 0, 0, List.of());
        boolean indexPrinted = ins != null && Graph.isTupleShape(ins.shape());
        LiveRange range = null;
        boolean phi = false;
        if (dv >= 0) {
            FlowValue val = d.values.get(dv);
            phi = val.phiDefined;
            if (lr.start[dv] >= 0) range = new LiveRange(lr.start[dv], lr.end[dv]);
        } else if (ins != null) {
            warn("no value of the dataflow matches logical buffer " + b.id() + " (" + name + index + ")");
        }
        return HloValue.deferred(b.id(), name == null ? "" : name, index, indexPrinted, phi, (int) b.color(), as.size(),
                as.offset(), allocation, shape, range, details, slot);
    }

    private BufferAllocation allocation(Allocation al, LongList ids, boolean output, Graph g) {
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

    /**
     * Values sharing a buffer: each alias joins its source buffer with the value defined at its
     * location. Groups of dataflow values; a group's values sorted by their buffers' ids.
     */
    private static List<int[]> aliasGroups(List<BufferAlias> aliases, Graph g, Dataflow d, List<LogicalBuffer> buffers,
                                           IdTable bufferById, int[] valueOfBuffer) {
        if (aliases.isEmpty()) return List.of();
        int[] bufferOfValue = new int[d.values.size()];   // a value's buffer position (the last one listed)
        Arrays.fill(bufferOfValue, -1);
        for (int k = 0; k < valueOfBuffer.length; k++) if (valueOfBuffer[k] >= 0) bufferOfValue[valueOfBuffer[k]] = k;
        // Union-find over buffer positions (-1: in no group); a source id the assignment does not
        // define gets a position after its buffers: it still joins the values aliased to it.
        int[] parent = new int[buffers.size() + aliases.size()];
        Arrays.fill(parent, -1);
        IdTable undefined = new IdTable(4);
        int extras = 0;
        for (BufferAlias a : aliases) {
            int i = g.number(a.instructionId());
            if (i < 0) continue;
            int v = d.valueAt(i, a.shapeIndex());
            int other = v < 0 ? -1 : bufferOfValue[v];
            if (other < 0) continue;
            int source = bufferById.get(a.sourceId());
            if (source < 0 && (source = undefined.get(a.sourceId())) < 0) undefined.put(a.sourceId(), source = buffers.size() + extras++);
            int x = find(parent, source), y = find(parent, other);
            if (x != y) parent[x] = y;
        }
        Map<Integer, List<Integer>> groups = new TreeMap<>();
        for (int k = 0; k < parent.length; k++) if (parent[k] >= 0) groups.computeIfAbsent(find(parent, k), r -> new ArrayList<>()).add(k);
        List<int[]> out = new ArrayList<>(groups.size());
        for (List<Integer> members : groups.values()) {
            List<int[]> byId = new ArrayList<>(members.size());
            for (int k : members) if (k < valueOfBuffer.length && valueOfBuffer[k] >= 0) byId.add(new int[] {k, valueOfBuffer[k]});
            byId.sort((x, y) -> Long.compare(buffers.get(x[0]).id(), buffers.get(y[0]).id()));
            int[] vs = new int[byId.size()];
            for (int j = 0; j < vs.length; j++) vs[j] = byId.get(j)[1];
            out.add(vs);
        }
        return out;
    }

    private static int find(int[] parent, int x) {
        if (parent[x] < 0) parent[x] = x;
        int r = x;
        while (parent[r] != r) r = parent[r];
        while (parent[x] != r) {
            int next = parent[x];
            parent[x] = r;
            x = next;
        }
        return r;
    }

    /** Scheduled instructions by time, then the others in module order; fusion bodies left out as in text dumps. */
    private static final int MAX_WARNINGS = 100;

    /** @param unread gets a warning for each instruction whose metadata cannot be read (it then has none) */
    private List<HloInstruction> instructions(Graph g, LiveRanges lr, StackIndex stacks, List<LoadWarning> unread) {
        List<HloInstruction> out = new ArrayList<>(g.size());
        HloInstruction[] byTime = new HloInstruction[lr.sequence.size()];
        List<HloInstruction> rest = new ArrayList<>();
        Map<Integer, List<String>> stackOf = new HashMap<>();
        for (int i = 0; i < g.size(); i++) {
            if (g.fusionBody[g.computationOf[i]]) continue;
            Instruction ins = g.ins[i];
            List<String> operands = new ArrayList<>(g.operands[i].length);
            for (int o : g.operands[i]) operands.add(o < 0 ? "?" : g.name(o));
            Messages.Metadata md = Messages.Metadata.NONE;
            if (ins.metadata() != null) {
                int c = g.computationOf[i];
                try {
                    md = HloProtoParser.metadata(g.module.metadata(), ins.metadata(), "HloProto.hlo_module.computations[" + c
                            + "].instructions[" + (i - g.firstOfComputation[c]) + "].metadata");
                } catch (ProtoException e) {
                    unread.add(new LoadWarning(file, 0, e.getMessage()));
                }
            }
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
    private static List<HeapEvent> events(List<Messages.Trace> traces, byte[] eventNames, List<LogicalBuffer> buffers,
                                          IdTable bufferById, int[] allocationOf) {
        Map<String, String> names = new HashMap<>();   // one String per distinct name
        int n = 0;
        for (Messages.Trace t : traces) n += t.events().size();
        List<HeapEvent> out = new ArrayList<>(n);
        int seq = 0;
        int nb = buffers.size();
        // By buffer position; ids the assignment does not define get positions after its buffers.
        IdTable extra = new IdTable(4);
        int[] canonical = new int[nb + 16];   // the position whose bytes a buffer holds, -1: its own
        int[] holders = new int[nb + 16];     // per canonical position: how many buffers hold its bytes
        int extras = 0;
        for (Messages.Trace t : traces) {
            long heap = 0;
            Arrays.fill(canonical, -1);
            Arrays.fill(holders, 0);
            for (Messages.Event e : t.events()) {
                int p = bufferById.get(e.bufferId());
                int w = e.kind() == 2 ? bufferById.get(e.shareWith()) : 0;
                if (p < 0 || w < 0) {
                    if (p < 0 && (p = extra.get(e.bufferId())) < 0) extra.put(e.bufferId(), p = nb + extras++);
                    if (w < 0 && (w = extra.get(e.shareWith())) < 0) extra.put(e.shareWith(), w = nb + extras++);
                    if (nb + extras > canonical.length) {
                        int old = canonical.length;
                        canonical = Arrays.copyOf(canonical, old * 2);
                        holders = Arrays.copyOf(holders, old * 2);
                        Arrays.fill(canonical, old, canonical.length, -1);
                    }
                }
                long size = p < nb ? buffers.get(p).size() : 0;
                long bytes = 0;
                String kind;
                switch (e.kind()) {
                    case 0 -> {
                        kind = "ALLOC";
                        canonical[p] = -1;
                        holders[p]++;
                        bytes = size;
                    }
                    case 2 -> {
                        kind = "SHARE_WITH";
                        int c = canonical[w] >= 0 ? canonical[w] : w;
                        canonical[p] = c;
                        // XLA frees an in-place operand just before its output shares it: the bytes come back.
                        if (++holders[c] == 1) bytes = c < nb ? buffers.get(c).size() : size;
                    }
                    default -> {
                        kind = "FREE";
                        int c = canonical[p] >= 0 ? canonical[p] : p;
                        if (--holders[c] <= 0) {
                            bytes = -(c < nb ? buffers.get(c).size() : size);
                            holders[c] = 0;
                        }
                        canonical[p] = -1;
                    }
                }
                heap += bytes;
                String instruction = names.computeIfAbsent(Messages.Event.name(eventNames, e.instruction()), x -> x);
                String computation = names.computeIfAbsent(Messages.Event.name(eventNames, e.computation()), x -> x);
                out.add(new HeapEvent(seq++, kind, e.bufferId(), instruction, computation, bytes, heap,
                        p < nb ? allocationOf[p] : -1, e.kind() == 2 ? e.shareWith() : -1));
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
