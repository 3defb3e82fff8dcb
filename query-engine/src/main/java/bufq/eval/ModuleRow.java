package bufq.eval;

import bufq.model.ProgramSizes;
import bufq.model.HeapEvent;
import bufq.model.HloModule;
import bufq.analysis.liveness.Liveness;
import bufq.model.PeakClaim;
import bufq.analysis.sharding.Shardings;
import bufq.table.ModuleSummary;

import java.util.List;

/**
 * One row of the {@code modules} entity: what {@code summary} tells of a module, kept without the
 * module itself, so a session can list thousands of modules while holding only a few in memory.
 *
 * @param summary          the handle, program and current flag every table of modules leads with
 * @param kind             {@code text}, {@code hlo-proto} (an {@code .hlo.pb}), {@code assignment-proto}
 *                         (a bare BufferAssignmentProto), {@code profile} (a module of an {@code .xplane.pb})
 *                         or {@code report-proto} (a memory usage report proto without its module)
 * @param peakBytes        bytes occupied at the peak ({@code Liveness.peakBytes}), -1 without live ranges
 * @param peakTime         the peak step, -1 without live ranges
 * @param tracePeakBytes   the heap-simulator trace's own peak, -1 without a trace
 * @param sizes            JAX's memory_analysis() figures read from the allocations
 * @param jaxVersion       the JAX version the dump records (a profile capture's), or null
 * @param jaxlibVersion    the jaxlib version it records, or null
 * @param partitions       {@code num_partitions} of the HLO text beside the dump ({@link Shardings}), 1 without it
 * @param replicas         its {@code replica_count}
 */
public record ModuleRow(ModuleSummary summary, String file, String kind, String backend, long values,
                        long allocations, long instructions, long totalBytes, long peakBytes, int peakTime,
                        int claimedPeakTime, long claimedPeakBytes, long events, long tracePeakBytes, long warnings,
                        ProgramSizes sizes, String jaxVersion,
                        String jaxlibVersion, long partitions, long replicas) {

    /** The row of {@code m}; {@code current} marks the session's current module. */
    public static ModuleRow of(HloModule m, boolean current) {
        Liveness l = Liveness.of(m);
        int peak = l.peakTime();
        long tracePeak = -1;
        for (HeapEvent e : m.heapEvents()) tracePeak = Math.max(tracePeak, e.heapBytes());
        PeakClaim claim = m.info().peakClaim();
        String file = m.info().files().isEmpty() ? null : m.info().files().get(0);
        return new ModuleRow(new ModuleSummary(m.handle(), m.info().name(), current), file, m.info().format(), m.info().backend(), m.values().size(),
                m.allocations().size(), m.instructionCount(), ProgramSizes.totalBytes(m), peak < 0 ? -1 : l.peakBytes(), peak,
                claim == null ? -1 : claim.time(), claim == null ? -1 : claim.claimedBytes(), m.heapEvents().size(),
                tracePeak, m.warningCount(), ProgramSizes.of(m), m.info().jaxVersion(),
                m.info().jaxlibVersion(), Shardings.header(m).partitions(), Shardings.header(m).replicas());
    }

    /** The module's name in the session, as {@code use} takes it. */
    public String handle() { return summary.handle(); }

    /** Rows of several modules, none current. */
    public static List<ModuleRow> of(List<HloModule> modules) {
        return modules.stream().map(m -> of(m, false)).toList();
    }
}
