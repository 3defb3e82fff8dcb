package bufq.eval;

import static bufq.table.ColumnType.BOOL;
import static bufq.table.ColumnType.BYTES;
import static bufq.table.ColumnType.INT;
import static bufq.table.ColumnType.STRING;

import bufq.model.HeapEvent;
import bufq.model.HloValue;
import bufq.table.ColumnType;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The entities that reach past one text dump: {@code events} (the heap-simulator trace of a proto
 * dump, in simulation order) and {@code modules} (every module of the session, one row each).
 */
final class ProtoEntities {
    private ProtoEntities() {}

    private interface EF { Object get(HeapEvent e, EvalContext c); }
    private interface MF { Object get(ModuleRow m); }


    private static Getter e(EF f) { return (r, c) -> f.get((HeapEvent) r, c); }
    private static Getter m(MF f) { return (r, c) -> f.get((ModuleRow) r); }
    private static Long l(long x) { return x; }
    private static Long orNull(long x) { return x < 0 ? null : x; }

    static Entity events() {
        FieldTable f = new FieldTable()
                .add("seq", INT, "position in the heap-simulator trace, from 0 (XProf's x-axis)", e((x, c) -> l(x.seq())))
                .add("kind", STRING, "ALLOC, FREE or SHARE_WITH", e((x, c) -> x.kind()))
                .add("value", INT, "id of the value (logical buffer)", e((x, c) -> l(x.value())))
                .add("label", STRING, "the value as the allocation section prints it", e((x, c) -> {
                    HloValue v = c.module().value(x.value());
                    return v == null ? null : v.label();
                }))
                .add("instruction", STRING, "instruction the event names (this XLA names the value's defining one, on FREE too)",
                        e((x, c) -> x.instruction()))
                .add("computation", STRING, "that instruction's computation", e((x, c) -> x.computation()))
                .add("step", INT, "that instruction's step, null when not scheduled", e((x, c) -> orNull(c.module().timeOf(x.instruction()))))
                .add("bytes", BYTES, "bytes taken (+) or given back (-): 0 for a share of held bytes and for freeing bytes still shared",
                        e((x, c) -> l(x.bytes())))
                .add("heap_bytes", BYTES, "bytes of the simulated heap after the event", e((x, c) -> l(x.heapBytes())))
                .add("allocation", INT, "allocation holding the value", e((x, c) -> orNull(x.allocation())))
                .add("share_with", INT, "the value whose bytes a SHARE_WITH reuses", e((x, c) -> orNull(x.shareWith())));
        return new Entity("events", "heap-simulator trace events (proto dumps), in simulation order",
                Collections.unmodifiableMap(f.map), List.of("seq", "kind", "value", "label", "instruction", "bytes", "heap_bytes"),
                ctx -> ctx.module().heapEvents(), null, null);
    }

    static Entity modules() {
        FieldTable f = new FieldTable()
                .add("handle", STRING, "the module's name in the session, unique there; what 'use' takes", m(ModuleRow::handle))
                .add("program", STRING, "the plain program name, which several modules may share", m(x -> x.summary().program()))
                .add("current", BOOL, "the session's current module", m(x -> x.summary().current()))
                .add("file", STRING, "first file read", m(ModuleRow::file))
                .add("kind", STRING, "text, hlo-proto, assignment-proto (bare BufferAssignmentProto), profile or report-proto (a memory usage report proto alone)", m(ModuleRow::kind))
                .add("backend", STRING, "cpu, gpu, tpu or unknown", m(ModuleRow::backend))
                .add("jax_version", STRING, "JAX version that wrote the dump, where it records it (a profile capture); else null", m(ModuleRow::jaxVersion))
                .add("jaxlib_version", STRING, "jaxlib version, where the dump records it (a profile capture); else null", m(ModuleRow::jaxlibVersion))
                .add("values", INT, "number of values", m(x -> l(x.values())))
                .add("allocations", INT, "number of allocations", m(x -> l(x.allocations())))
                .add("instructions", INT, "number of instructions", m(x -> l(x.instructions())))
                .add("total_bytes", BYTES, "XLA's Total bytes used: sum of allocation sizes, or a report's stated total (as summary)", m(x -> l(x.totalBytes())))
                .add("peak_bytes", BYTES, "bytes occupied at the peak (each byte of an allocation once)", m(x -> orNull(x.peakBytes())))
                .add("peak_time", INT, "the peak: first step with the most occupied bytes", m(x -> orNull(x.peakTime())))
                .add("claimed_peak_time", INT, "the dump's own peak step", m(x -> orNull(x.claimedPeakTime())))
                .add("claimed_peak_bytes", BYTES, "the dump's own peak figure", m(x -> orNull(x.claimedPeakBytes())))
                .add("events", INT, "heap-simulator trace events (proto dumps)", m(x -> l(x.events())))
                .add("trace_peak_bytes", BYTES, "the trace's own peak heap bytes", m(x -> orNull(x.tracePeakBytes())))
                .add("argument_bytes", BYTES, "entry parameter allocations (memory_analysis' argument_size_in_bytes)", m(x -> orNull(x.sizes().argumentBytes())))
                .add("output_bytes", BYTES, "maybe-live-out allocations (output_size_in_bytes)", m(x -> orNull(x.sizes().outputBytes())))
                .add("alias_bytes", BYTES, "parameters also live out: donated buffers an output reuses (alias_size_in_bytes)", m(x -> orNull(x.sizes().aliasBytes())))
                .add("temp_bytes", BYTES, "preallocated temp allocations, requested whole (temp_size_in_bytes)", m(x -> orNull(x.sizes().tempBytes())))
                .add("code_bytes", BYTES, "generated code; no dump gives it, so null", m(x -> orNull(x.sizes().codeBytes())))
                .add("constant_bytes", BYTES, "constant allocations", m(x -> orNull(x.sizes().constantBytes())))
                .add("needs_bytes", BYTES, "what a run asks for: code + arguments + outputs - aliases + temp + constants", m(x -> orNull(x.sizes().needsBytes())))
                .add("partitions", INT, "num_partitions of the HLO text beside the dump: devices one SPMD program serves (every size is one device's); 1 without it", m(x -> l(x.partitions())))
                .add("replicas", INT, "replica_count of the HLO text beside the dump; 1 without it", m(x -> l(x.replicas())))
                .add("warnings", INT, "load warnings", m(x -> l(x.warnings())));
        return new Entity("modules", "every loaded module, one row each (a dump directory, a profile)",
                Collections.unmodifiableMap(f.map),
                List.of("handle", "program", "current", "kind", "backend", "values", "allocations", "total_bytes", "peak_bytes", "peak_time"),
                EvalContext::moduleRows, null, null);
    }

}
