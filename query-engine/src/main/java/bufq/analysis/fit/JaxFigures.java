package bufq.analysis.fit;

import bufq.analysis.liveness.Liveness;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.MemorySpace;
import bufq.model.ProgramSizes;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.List;

/**
 * JAX's {@code memory_analysis()} of a compile (a {@code memory_analysis.json} beside its dump) held
 * against the dump: arguments, outputs and aliases must equal the device memory's (colour 0)
 * allocations exactly; where the temp or the peak differ, what the dump shows of the difference,
 * in one line with the numbers, never a silent mismatch.
 */
public final class JaxFigures {
    private JaxFigures() {}

    /** How near bufq's occupancy peak must be to {@code peak_memory_in_bytes} to be called equal. */
    public static final long PEAK_TOLERANCE = 20 << 10;

    /** The figures of one compile side by side. */
    public record Comparison(ProgramSizes.Reported jax, ProgramSizes dump, boolean heldExact, List<String> lines) {}

    public static Comparison compare(HloModule m, ProgramSizes.Reported j) {
        ProgramSizes z = ProgramSizes.of(m);
        List<String> lines = new ArrayList<>();
        boolean exact = z.argumentBytes() == j.argumentBytes() && z.outputBytes() == j.outputBytes()
                && z.aliasBytes() == j.aliasBytes();
        String where = MemorySpace.several(m) ? "the dump's " + MemorySpace.name(m, MemorySpace.DEVICE) + " (color 0) allocations"
                : "the dump's allocations";
        if (exact) {
            lines.add("memory_analysis: arguments " + Units.human(j.argumentBytes()) + ", outputs " + Units.human(j.outputBytes())
                    + ", aliases " + Units.human(j.aliasBytes()) + " equal " + where + " exactly");
        } else {
            lines.add("MISMATCH: memory_analysis says arguments " + j.argumentBytes() + ", outputs " + j.outputBytes()
                    + ", aliases " + j.aliasBytes() + " bytes; " + where + " give " + z.argumentBytes() + ", "
                    + z.outputBytes() + ", " + z.aliasBytes());
        }
        lines.add(temp(m, z, j));
        String peak = peak(m, j);
        if (peak != null) lines.add(peak);
        String host = host(m, j);
        if (host != null) lines.add(host);
        return new Comparison(j, z, exact, lines);
    }

    /** The temp: equal, or by how much JAX's differs and what the dump shows of it. */
    static String temp(HloModule m, ProgramSizes z, ProgramSizes.Reported j) {
        long jt = j.tempBytes(), dt = z.tempBytes(), d = jt - dt;
        String hbm = MemorySpace.several(m) ? MemorySpace.name(m, MemorySpace.DEVICE) + " " : "";
        if (d == 0) return "memory_analysis: temp " + Units.human(jt) + " equals the dump's " + hbm + "temp allocations";
        long otherTemp = 0, threadLocal = 0, constants = 0, vmemTemp = 0;
        for (BufferAllocation a : m.allocations()) {
            if (a.color() == MemorySpace.DEVICE) {
                if (a.threadLocal()) threadLocal += a.size();
                if (a.constant()) constants += a.size();
            } else if (a.isTemp()) {
                otherTemp += a.size();
                if ("vmem".equals(MemorySpace.name(m, a.color()))) vmemTemp += a.size();
            }
        }
        StringBuilder b = new StringBuilder("memory_analysis: temp_size_in_bytes ").append(Units.grouped(jt, ' '))
                .append(" (").append(Units.human(jt)).append(") is ").append(Units.human(Math.abs(d)))
                .append(" (").append(Units.grouped(Math.abs(d), ' ')).append(" B) ").append(d > 0 ? "more" : "less")
                .append(" than the dump's ").append(hbm).append("temp allocations (").append(Units.grouped(dt, ' ')).append(" B): ");
        if (d > 0) {
            String same = d == threadLocal + constants ? "its thread-local and constant allocations (" + Units.human(d) + ")"
                    : d == threadLocal ? "its thread-local allocations" : d == otherTemp ? "the temp of its other memory spaces"
                    : d == vmemTemp ? "its VMEM temp" : null;
            if (same != null) return b.append("the difference is ").append(same).toString();
            b.append("no allocation of the dump makes it up (").append(hbm.isEmpty() ? "" : hbm.trim() + " ")
                    .append("thread-local ").append(Units.human(threadLocal)).append(", constants ").append(Units.human(constants));
            if (vmemTemp > 0) b.append("; VMEM temp ").append(Units.human(vmemTemp)).append(" is another memory");
            b.append("): XLA counts in its temp memory that the buffer assignment does not list");
            if (j.peakBytes() >= 0 && j.peakBytes() < z.heldBytes() + jt)
                b.append(", and its peak_memory_in_bytes (").append(Units.human(j.peakBytes()))
                        .append(") is below arguments + outputs - aliases + temp, so that temp is never all live at once");
        } else {
            b.append("XLA's temp leaves out ").append(Units.human(-d)).append(" the dump assigns");
            if (jt == 0) b.append(" (it reports no temp at all)");
        }
        return b.toString();
    }

    /** bufq's peak of occupied device bytes beside {@code peak_memory_in_bytes}; null when either is missing. */
    static String peak(HloModule m, ProgramSizes.Reported j) {
        Liveness l = Liveness.of(m);
        if (j.peakBytes() < 0 || l.peakTime() < 0) return null;
        long ours = l.peakBytes(), d = j.peakBytes() - ours;
        String head = "memory_analysis: peak_memory_in_bytes " + Units.grouped(j.peakBytes(), ' ') + " (" + Units.human(j.peakBytes())
                + "); the dump's peak of occupied " + (MemorySpace.several(m) ? MemorySpace.name(m, MemorySpace.DEVICE) + " " : "")
                + "bytes " + Units.grouped(ours, ' ') + " (step " + l.peakTime() + ")";
        if (Math.abs(d) <= PEAK_TOLERANCE) return head + ": equal within " + Units.human(PEAK_TOLERANCE) + " (" + d + " B)";
        for (int c : l.colors()) {
            if (c == MemorySpace.DEVICE || l.peakTime(c) < 0) continue;
            long other = l.peakBytes(c);
            if (Math.abs(d - other) <= PEAK_TOLERANCE)
                return head + ": XLA's is " + Units.human(d) + " (" + Units.grouped(d, ' ') + " B) more, the peak of " + MemorySpace.name(m, c) + " (color " + c
                        + ", " + Units.grouped(other, ' ') + " B): it adds that memory in";
        }
        return head + ": XLA's is " + Units.human(Math.abs(d)) + " (" + Units.grouped(Math.abs(d), ' ') + " B) "
                + (d > 0 ? "more" : "less") + " than the live ranges give";
    }

    /** Host offload: {@code host_temp_size_in_bytes} beside the dump's colour-5 allocations; null when both are 0. */
    static String host(HloModule m, ProgramSizes.Reported j) {
        ProgramSizes h = ProgramSizes.ofSpace(m, MemorySpace.HOST_OFFLOAD);
        long dump = h.known() ? h.tempBytes() : 0;
        if (j.hostTempBytes() <= 0 && dump <= 0) return null;
        return "memory_analysis: host_temp_size_in_bytes " + Units.human(Math.max(j.hostTempBytes(), 0))
                + (j.hostTempBytes() == dump ? " equals" : " differs from") + " the dump's host-offload (color "
                + MemorySpace.HOST_OFFLOAD + ") temp " + Units.human(dump) + " (" + Units.grouped(dump, ' ') + " B)";
    }
}
