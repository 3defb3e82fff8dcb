package bufq.analysis.peak;

import bufq.units.Units;
import bufq.analysis.liveness.LiveValues;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.liveness.Steps;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The dump's own peak label ({@code Live ranges at P (peak)}) against bufq's peak, the first step
 * with the most occupied bytes: XLA's rule for picking the label, and the one-line explanation
 * {@code peak} and {@code summary} print when the two differ.
 */
public final class ClaimedPeak {
    private ClaimedPeak() {}

    /** XLA's {@code ComputePeakMemoryMoment} for {@code m}: see {@link Liveness#xlaPeakMoment()}. */
    public static int xlaMoment(HloModule m) { return Liveness.of(m).xlaPeakMoment(); }

    /** Bytes live at {@code t} with each value weighed by its defining instruction's whole shape. */
    public static long bytesByInstruction(HloModule m, int t) { return Liveness.of(m).liveBytesByInstruction(t); }

    /**
     * One line saying why the dump's label is not the peak, with numbers: which values live at the
     * peak its list leaves out, and whether XLA's rule explains the label; then, when the logical sum
     * exceeds occupancy at the step with the most live bytes, how many bytes are shared there. Null
     * when the label is the peak (or either is missing).
     */
    public static String note(HloModule m) {
        Liveness l = Liveness.of(m);
        int p = l.peakTime(), c = l.claimedPeakTime();
        if (p < 0 || c < 0 || c >= l.steps() || p == c) return null;
        if (l.occupiedBytes(c) == l.peakBytes()) {
            return "the dump labels step " + c + " its peak; it holds as many occupied bytes (" + Units.human(l.peakBytes())
                    + ") as step " + p + ", the first step with that many, which is the peak";
        }
        String at = Units.human(l.occupiedBytes(c)), peak = Units.human(l.peakBytes());
        StringBuilder o = new StringBuilder("the dump labels step ").append(c).append(" its peak (")
                .append(at).append(" occupied) but step ").append(p).append(" holds ").append(peak);
        // Two figures that round alike would read as a contradiction: say by how much the peak is more.
        if (at.equals(peak)) o.append(", ").append(l.peakBytes() - l.occupiedBytes(c)).append(" bytes more");
        o.append(": ");
        List<HloValue> missing = new ArrayList<>();
        long missingBytes = 0;
        int space = Steps.spaceFilter(m, OptionalInt.empty());
        for (HloValue v : LiveValues.at(m, p)) {
            if (v.liveAt(c) || space >= 0 && v.color() != space) continue;
            missing.add(v);
            missingBytes += v.logicalSize();
        }
        missing.sort(ValueOrder.LARGEST_FIRST);
        o.append("its list leaves out ").append(missing.size()).append(" value").append(missing.size() == 1 ? "" : "s")
                .append(" live at step ").append(p).append(" (").append(Units.human(missingBytes));
        for (int i = 0; i < Math.min(3, missing.size()); i++) {
            HloValue v = missing.get(i);
            o.append(i == 0 ? ": " : ", ").append(v.label()).append(' ').append(Units.human(v.logicalSize()));
        }
        if (missing.size() > 3) o.append(", ...");
        o.append(')');
        int xla = xlaMoment(m);
        o.append(xla == c ? "; XLA's ComputePeakMemoryMoment picks step " + c + " because it adds the values born at a "
                + "step before releasing those whose range ended the step before"
                : "; emulating XLA's ComputePeakMemoryMoment gives step " + xla + ", so the label is not fully explained");
        String shared = sharedNote(m);
        if (shared != null) o.append("; ").append(shared);
        return o.toString();
    }

    /**
     * At the first step with the most live (logical) bytes, when they exceed the bytes occupied
     * then: how many assigned bytes are held by two live values at once. Null otherwise.
     */
    static String sharedNote(HloModule m) {
        Liveness l = Liveness.of(m);
        int t = l.mostLiveTime();
        if (t < 0 || l.liveBytes(t) <= l.occupiedBytes(t)) return null;
        long assigned = 0;
        int space = Steps.spaceFilter(m, OptionalInt.empty());
        for (HloValue v : LiveValues.at(m, t)) if (space < 0 || v.color() == space) assigned += v.size();
        long shared = assigned - l.occupiedBytes(t);
        if (shared <= 0) return null;
        return "step " + t + " has the most live bytes (" + Units.human(l.liveBytes(t)) + ") because "
                + Units.human(shared) + " there are held by two live values at once (a hand-over), counted twice";
    }
}
