package bufq.fit;

import bufq.model.ProgramSizes;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.liveness.Liveness;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code fit} keeps of one loaded module: its figures, the arrays a caller may hold after it,
 * its largest preallocated temp allocation and bufq's own occupancy peak. Small, so thousands fit.
 *
 * @param tempAllocation the largest preallocated temp allocation's index, -1 when none
 * @param peakBytes      bytes occupied at bufq's peak (live values, each byte once), -1 without live ranges
 */
public record Program(String handle, String name, ProgramSizes sizes, List<HeldArray> arrays, int tempAllocation,
                      long peakBytes) {
    public Program {
        arrays = List.copyOf(arrays);
    }

    public static Program of(HloModule m) {
        List<HeldArray> arrays = new ArrayList<>();
        int temp = -1;
        long tempSize = -1;
        for (BufferAllocation a : m.allocations()) {
            if (a.color() == ProgramSizes.HOST_COLOR) continue;
            boolean out = ProgramSizes.liveOut(a);
            if (a.isParameter()) {
                arrays.add(new HeldArray(m.handle(), a.index(), "parameter " + a.parameter() + (out ? ", output" : ""),
                        a.parameterShape() == null ? null : a.parameterShape().text(), a.size()));
            } else if (out) {
                arrays.add(new HeldArray(m.handle(), a.index(), "output",
                        a.outputShape() == null ? null : a.outputShape().text(), a.size()));
            } else if (a.isTemp() && a.size() > tempSize) {
                temp = a.index();
                tempSize = a.size();
            }
        }
        Liveness l = Liveness.of(m);
        long peak = l.peakTime() >= 0 ? l.peakBytes() : -1;
        return new Program(m.handle(), m.info().name(), ProgramSizes.of(m), arrays, temp, peak);
    }

    public long needsBytes() { return sizes.needsBytes(); }

    /** This program under another handle (a session tells two programs of one name apart as {@code NAME#2}). */
    public Program renamed(String newHandle) {
        return new Program(newHandle, name, sizes, arrays.stream()
                .map(a -> new HeldArray(newHandle, a.allocation(), a.role(), a.shape(), a.bytes())).toList(), tempAllocation, peakBytes);
    }
}
