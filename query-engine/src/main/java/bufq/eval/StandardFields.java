package bufq.eval;

import bufq.analysis.category.Categories;
import bufq.analysis.category.CategoryRules;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import static bufq.table.ColumnType.BOOL;
import static bufq.table.ColumnType.BYTES;
import static bufq.table.ColumnType.INT;
import static bufq.table.ColumnType.LIST;
import static bufq.table.ColumnType.STRING;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.MemorySpace;
import bufq.model.HloModule;
import bufq.analysis.liveness.RangeEnd;
import bufq.model.Shape;
import bufq.analysis.sharding.HloSharding;
import bufq.analysis.sharding.Shardings;
import bufq.analysis.liveness.UseSchedule;
import bufq.table.ColumnType;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The built-in entities and fields. Getters are plain lambdas over the model: no reflection. */
final class StandardFields {
    private StandardFields() {}

    /** A field read from the values' blocks or the instructions' lines: it reads the Used values section. */
    private static final boolean USED = true;

    private interface VF { Object get(HloValue v, EvalContext c); }
    private interface AF { Object get(BufferAllocation a, EvalContext c); }
    private interface IF { Object get(HloInstruction i, EvalContext c); }
    private interface SF { Object get(Step s, EvalContext c); }
    private interface UF { Object get(ValueUse u, EvalContext c); }


    private static Getter v(VF f) { return (r, c) -> f.get((HloValue) r, c); }
    private static Getter a(AF f) { return (r, c) -> f.get((BufferAllocation) r, c); }
    private static Getter i(IF f) { return (r, c) -> f.get((HloInstruction) r, c); }
    private static Getter s(SF f) { return (r, c) -> f.get((Step) r, c); }
    private static Getter u(UF f) { return (r, c) -> f.get((ValueUse) r, c); }

    private static Long l(long x) { return x; }
    private static Long stepOrNull(int x) { return x < 0 ? null : Long.valueOf(x); }
    private static Long lineOrNull(int x) { return x < 0 ? null : Long.valueOf(x); }
    private static String emptyToNull(String s) { return s == null || s.isEmpty() ? null : s; }

    /** The built-in entities by name, in the order {@code fields} lists them. */
    static Map<String, Entity> entities() {
        Map<String, Entity> m = new LinkedHashMap<>();
        m.put("values", values());
        m.put("allocations", allocations());
        m.put("instructions", instructions());
        m.put("steps", steps());
        m.put("uses", uses());
        m.put("events", ProtoEntities.events());
        m.put("modules", ProtoEntities.modules());
        return m;
    }

    private static HloInstruction def(HloValue v, EvalContext c) { return c.module().instruction(v.name()); }

    private static Entity values() {
        FieldTable f = new FieldTable()
                .add("id", INT, "value id, unique in the module", v((x, c) -> l(x.id())))
                .add("name", STRING, "defining instruction", v((x, c) -> x.name()))
                .add("index", STRING, "shape index in the defining instruction's output, {} for the whole", v((x, c) -> x.index()))
                .add("label", STRING, "name as the allocation section prints it (fusion{0}, add.3)", v((x, c) -> x.label()))
                .add("color", INT, "memory space of the value (0 default; TPU 1 = VMEM)", v((x, c) -> l(x.color())))
                .add("space", STRING, "its memory space by name: hbm (color 0 on TPU/GPU; default on CPU), vmem, smem, host, host-offload (color 5)",
                        v((x, c) -> MemorySpace.name(c.module(), x.color())))
                .add("size", BYTES, "size= in the allocation section (physical)", v((x, c) -> l(x.size())))
                .add("offset", INT, "byte offset inside its allocation", v((x, c) -> l(x.offset())))
                .add("allocation", INT, "index of the allocation holding it", v((x, c) -> l(x.allocation())))
                .add("kind", STRING, "kind of its allocation (temp, parameter, output, ...)", v((x, c) -> {
                    BufferAllocation al = c.module().allocation(x.allocation());
                    return al == null ? null : al.kind();
                }))
                .add("shape", STRING, "shape with layout as printed", v((x, c) -> x.shape() == null ? null : x.shape().text()))
                .add("dtype", STRING, "element type (f32, bf16, tuple, ...)", v((x, c) -> x.shape() == null ? null : x.shape().dtype()))
                .add("dims", LIST, "dimensions", v((x, c) -> x.shape() == null || !x.shape().isArray() ? null : dims(x.shape())))
                .add("layout", STRING, "layout text between braces (1,0:T(8,128))", v((x, c) -> x.shape() == null ? null : emptyToNull(x.shape().layoutText())))
                .add("memory_space", INT, "S(n) of the layout, 0 when absent", v((x, c) -> x.shape() == null ? null : l(x.shape().memorySpace())))
                .add("logical_size", BYTES, "bytes without padding (XLA's ByteSizeOf)", v((x, c) -> x.shape() == null ? null : l(x.logicalSize())))
                .add("padded_size", BYTES, "bytes under the current tiling model", v((x, c) -> x.shape() == null ? null
                        : l(padded(x, c))))
                .add("padding", BYTES, "padded_size - logical_size", v((x, c) -> x.shape() == null ? null
                        : l(padded(x, c) - x.logicalSize())))
                .add("start", INT, "first step it is live (null without a live range)", v((x, c) -> x.hasRange() ? l(x.rangeStart()) : null))
                .add("end", INT, "last step it is live, inclusive", v((x, c) -> x.hasRange() ? l(x.rangeEnd()) : null))
                .add("duration", INT, "number of steps it is live (end - start + 1)", v((x, c) -> !x.hasRange() ? null
                        : l((long) x.rangeEnd() - x.rangeStart() + 1)))
                .add("opcode", STRING, "opcode of the defining instruction", v((x, c) -> { HloInstruction d = def(x, c); return d == null ? null : d.opcode(); }), USED)
                .add("op_name", STRING, "metadata op_name of the defining instruction", v((x, c) -> { HloInstruction d = def(x, c); return d == null ? null : d.opName(); }), USED)
                .add("source_file", STRING, "metadata source_file", v((x, c) -> { HloInstruction d = def(x, c); return d == null ? null : d.sourceFile(); }), USED)
                .add("source_line", INT, "metadata source_line", v((x, c) -> { HloInstruction d = def(x, c); return d == null ? null : lineOrNull(d.sourceLine()); }), USED)
                .add("uses", LIST, "uses as 'user, operand k'", v((x, c) -> x.uses().stream().map(Object::toString).toList()), USED)
                .add("num_uses", INT, "number of uses", v((x, c) -> l(x.uses().size())), USED)
                .add("use_count", INT, "number of uses by scheduled instructions", v((x, c) -> l(UseSchedule.scheduledUses(c.module(), x))), USED)
                .add("first_use", INT, "step of its first use (null when no use is scheduled)", v((x, c) -> stepOrNull(UseSchedule.firstUse(c.module(), x))), USED)
                .add("last_use", INT, "step of its last use (null when no use is scheduled)", v((x, c) -> stepOrNull(UseSchedule.lastUse(c.module(), x))), USED)
                .add("idle_steps", INT, "longest run of steps it is live but not used (null without a live range)", v((x, c) -> {
                    if (!x.hasRange()) return null;
                    UseSchedule.Stretch s = UseSchedule.longestIdle(c.module(), x);
                    return l(s == null ? 0 : s.steps());
                }), USED)
                .add("idle_byte_steps", INT, "size x idle_steps: what its longest idle stretch holds, in byte-steps", v((x, c) -> {
                    if (!x.hasRange()) return null;
                    UseSchedule.Stretch s = UseSchedule.longestIdle(c.module(), x);
                    return l(s == null ? 0 : Math.multiplyExact(x.size(), (long) s.steps()));
                }), USED)
                .add("idle_at_peak", BOOL, "the peak falls in a stretch where it is live but not used", v((x, c) ->
                        UseSchedule.idleAt(c.module(), x, Liveness.of(c.module()).peakTime()) != null), USED)
                .add("end_reason", STRING, "why its live range ends there: last_use, live_out, undonated_parameter, carry, ...", v((x, c) ->
                        RangeEnd.of(c.module(), x).reason().word()), USED)
                .add("positions", LIST, "positions as 'instruction [index]'", v((x, c) -> x.positions().stream().map(Object::toString).toList()), USED)
                .add("category", STRING, CATEGORY_DOC, valueCategory(CategoryRules.NONE), USED)
                .add("live_out", BOOL, "live until the end of the program", v(StandardFields::valueLiveOut))
                .add("phi", BOOL, "a phi value", v((x, c) -> x.phi()))
                .add("sharding", STRING, "an entry parameter's sharding as the HLO text beside the dump gives it ({devices=[4,1]<=[4]}, {replicated}); null for other values or without that text",
                        v((x, c) -> { HloSharding h = Shardings.of(c.module()).shardingOf(x); return h == null ? null : h.text(); }))
                .add("global_shape", STRING, "an entry parameter's shape over all devices (its per-device shape times the tile counts of its sharding)",
                        v((x, c) -> Shardings.of(c.module()).globalShape(x)))
                .add("shards", INT, "an entry parameter's pieces: how many ways its sharding cuts it (1 when replicated)", v((x, c) -> {
                    HloSharding h = Shardings.of(c.module()).shardingOf(x);
                    return h == null ? null : l(h.shards());
                }))
                .add("replicated", BOOL, "an entry parameter whose every element is on every device", v((x, c) -> {
                    HloSharding h = Shardings.of(c.module()).shardingOf(x);
                    return h == null ? null : h.replicated();
                }));
        return new Entity("values", "HLO values with their allocation, shape and live range", f.done(),
                List.of("id", "label", "color", "size", "offset", "allocation", "shape", "start", "end"),
                ctx -> ctx.module().values(),
                (row, from, to, ctx) -> { HloValue v = (HloValue) row; return v.hasRange() && v.rangeStart() <= to && from <= v.rangeEnd(); },
                (from, to, ctx) -> LiveValues.during(ctx.module(), from, to));
    }

    static final String CATEGORY_DOC = "what the memory is, by dataflow: weights, optimizer, inputs, gathered weights, outputs, residuals, "
            + "recomputed, gradients, cotangents, collectives, constants, temporaries (blame by category; set category adds rules)";

    /** The {@code category} of a value under {@code rules}; a failing rule fails the query, naming it. */
    static Getter valueCategory(CategoryRules rules) { return v((x, c) -> category(x, c, rules)); }

    /** The {@code category} of the value a use reads, under {@code rules}. */
    static Getter useCategory(CategoryRules rules) { return u((x, c) -> category(x.value(), c, rules)); }

    private static String category(HloValue v, EvalContext c, CategoryRules rules) {
        try {
            return Categories.of(c.module(), rules).of(c.module(), v);
        } catch (CategoryRules.RuleFailure f) {
            throw new FieldFailure("category", f);
        }
    }

    /** The tiling model may be a script: its failure fails the query with the model's name. */
    private static long padded(HloValue x, EvalContext c) {
        try {
            return c.tiling().paddedBytes(x, c.module());
        } catch (RuntimeException e) {
            throw new FieldFailure("padded_size (tiling " + c.tiling().name() + ")", e);
        }
    }

    private static Object valueLiveOut(HloValue x, EvalContext c) {
        int max = c.module().info().maxTime();
        if (x.hasRange() && max >= 0) return x.rangeEnd() >= max;
        BufferAllocation al = c.module().allocation(x.allocation());
        return al != null && al.maybeLiveOut();
    }

    private static List<Object> dims(Shape s) {
        List<Object> out = new ArrayList<>(s.rank());
        for (long d : s.dims()) out.add(d);
        return out;
    }

    private static Entity allocations() {
        FieldTable f = new FieldTable()
                .add("index", INT, "allocation number", a((x, c) -> l(x.index())))
                .add("size", BYTES, "allocation size", a((x, c) -> l(x.size())))
                .add("color", INT, "memory space (colour)", a((x, c) -> l(x.color())))
                .add("space", STRING, "its memory space by name: hbm (color 0 on TPU/GPU; default on CPU), vmem, smem, host, host-offload (color 5)",
                        a((x, c) -> MemorySpace.name(c.module(), x.color())))
                .add("kind", STRING, "one word: parameter, parameter-live-out, constant, thread-local, output, live-out, temp", a((x, c) -> x.kind()))
                .add("parameter", INT, "entry parameter number, null when not a parameter", a((x, c) -> x.isParameter() ? l(x.parameter()) : null))
                .add("shape", STRING, "parameter or output shape", a((x, c) -> x.parameterShape() != null ? x.parameterShape().text()
                        : x.outputShape() != null ? x.outputShape().text() : null))
                .add("shape_index", STRING, "ShapeIndex of a parameter allocation", a((x, c) -> x.shapeIndex()))
                .add("constant", BOOL, "holds a constant", a((x, c) -> x.constant()))
                .add("thread_local", BOOL, "thread-local (reducers, fusion bodies)", a((x, c) -> x.threadLocal()))
                .add("live_out", BOOL, "maybe-live-out", a((x, c) -> x.maybeLiveOut()))
                .add("temp", BOOL, "a temporary (none of the other kinds, or preallocated-temp)", a((x, c) -> x.isTemp()))
                .add("output", BOOL, "holds the program's output", a((x, c) -> x.isOutput()))
                .add("preallocated_temp", BOOL, "preallocated-temp", a((x, c) -> x.preallocatedTemp()))
                .add("values", LIST, "labels of the values assigned here", a((x, c) -> {
                    List<Object> out = new ArrayList<>();
                    for (HloValue v : c.module().valuesIn(x.index())) out.add(v.label());
                    return out;
                }))
                .add("num_values", INT, "number of values assigned here", a((x, c) -> l(c.module().valuesIn(x.index()).size())))
                .add("pointer", STRING, "TF-era address, else null", a((x, c) -> x.pointer()));
        return new Entity("allocations", "buffer allocations with their flags", f.done(),
                List.of("index", "kind", "size", "color", "num_values", "shape"),
                ctx -> ctx.module().allocations(),
                (row, from, to, ctx) -> {
                    for (HloValue v : ctx.module().valuesIn(((BufferAllocation) row).index()))
                        if (v.hasRange() && v.rangeStart() <= to && from <= v.rangeEnd()) return true;
                    return false;
                },
                StandardFields::liveAllocations);
    }

    private static List<?> liveAllocations(int from, int to, EvalContext ctx) {
        HloModule m = ctx.module();
        BitSet seen = new BitSet();
        for (HloValue v : LiveValues.during(m, from, to)) if (v.allocation() >= 0) seen.set(v.allocation());
        List<BufferAllocation> out = new ArrayList<>();
        for (BufferAllocation al : m.allocations()) if (al.index() >= 0 && seen.get(al.index())) out.add(al);
        return out;
    }

    private static Entity instructions() {
        FieldTable f = new FieldTable()
                .add("name", STRING, "instruction name", i((x, c) -> x.name()))
                .add("opcode", STRING, "opcode (fusion, copy, ...)", i((x, c) -> x.opcode()))
                .add("time", INT, "position in the InstructionSequence, null when not sequenced", i((x, c) -> x.time() < 0 ? null : l(x.time())))
                .add("shape", STRING, "output shape", i((x, c) -> x.shape() == null ? null : x.shape().text()))
                .add("op_name", STRING, "metadata op_name", i((x, c) -> x.opName()))
                .add("source_file", STRING, "metadata source_file", i((x, c) -> x.sourceFile()))
                .add("source_line", INT, "metadata source_line", i((x, c) -> lineOrNull(x.sourceLine())))
                .add("operands", LIST, "operand names", i((x, c) -> List.copyOf(x.operands())))
                .add("users", LIST, "names of instructions using it", i((x, c) -> List.copyOf(c.module().users(x.name()))))
                .add("attributes", STRING, "text after the operand list (kind=kLoop, calls=...)", i((x, c) -> emptyToNull(x.attributes())))
                .add("values", LIST, "labels of the values it defines", i((x, c) -> c.module().valuesNamed(x.name()).stream().map(v -> (Object) v.label()).toList()))
                .add("live_bytes", BYTES, "logical bytes live at its time", i((x, c) -> x.time() < 0 ? null
                        : l(Liveness.of(c.module()).liveBytes(x.time()))));
        return new Entity("instructions", "HLO instructions with their schedule time and metadata", f.done(),
                List.of("time", "name", "opcode", "shape", "op_name"),
                ctx -> ctx.module().instructions(),
                (row, from, to, ctx) -> { int t = ((HloInstruction) row).time(); return t >= 0 && from <= t && t <= to; },
                null, USED);
    }

    private static Entity steps() {
        FieldTable f = new FieldTable()
                .add("time", INT, "program point", s((x, c) -> l(x.time())))
                .add("instruction", STRING, "instruction at this point (null after the last)", s((x, c) -> x.instruction()))
                .add("opcode", STRING, "opcode of that instruction", s((x, c) -> {
                    HloInstruction in = x.instruction() == null ? null : c.module().instruction(x.instruction());
                    return in == null ? null : in.opcode();
                }), USED)
                .add("live_bytes", BYTES, "logical bytes of the values live here (shared bytes counted per value)", s((x, c) -> l(x.liveBytes())))
                .add("occupied_bytes", BYTES, "bytes held here: per allocation, each byte of the live values once", s((x, c) -> l(x.occupiedBytes())))
                .add("live_values", INT, "number of values live here", s((x, c) -> l(x.liveValues())));
        return new Entity("steps", "program points of the schedule with live bytes", f.done(),
                List.of("time", "instruction", "live_bytes", "occupied_bytes", "live_values"),
                ctx -> Step.of(ctx.module()),
                (row, from, to, ctx) -> { int t = ((Step) row).time(); return from <= t && t <= to; },
                null);
    }

    private static Entity uses() {
        FieldTable f = new FieldTable()
                .add("value", INT, "id of the value read", u((x, c) -> l(x.value().id())))
                .add("label", STRING, "the value as the allocation section prints it", u((x, c) -> x.value().label()))
                .add("user", STRING, "instruction that reads it", u((x, c) -> x.use().use().user()))
                .add("operand", INT, "operand number of the value in the user", u((x, c) -> l(x.use().use().operand())))
                .add("index", STRING, "shape index in the operand, {} for the whole", u((x, c) -> x.use().use().index()))
                .add("time", INT, "step the user runs at, null when not scheduled", u((x, c) -> stepOrNull(x.use().step())))
                .add("opcode", STRING, "opcode of the user", u((x, c) -> {
                    HloInstruction in = c.module().instruction(x.use().use().user());
                    return in == null ? null : in.opcode();
                }))
                .add("op_name", STRING, "metadata op_name of the user", u((x, c) -> {
                    HloInstruction in = c.module().instruction(x.use().use().user());
                    return in == null ? null : in.opName();
                }))
                .add("size", BYTES, "size= of the value read", u((x, c) -> l(x.value().size())))
                .add("category", STRING, "category of the value read (see the values field)", useCategory(CategoryRules.NONE))
                .add("last", BOOL, "the value's last scheduled use", u((x, c) -> x.use().step() >= 0
                        && x.use().step() == UseSchedule.lastUse(c.module(), x.value())));
        return new Entity("uses", "reads of values by instructions (HloUse), in schedule order per value", f.done(),
                List.of("value", "label", "user", "operand", "time", "opcode"),
                ctx -> ValueUse.all(ctx.module()),
                (row, from, to, ctx) -> { int t = ((ValueUse) row).use().step(); return t >= 0 && from <= t && t <= to; },
                null, USED);
    }
}
