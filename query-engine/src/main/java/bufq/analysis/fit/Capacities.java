package bufq.analysis.fit;

import bufq.model.HloModule;
import bufq.analysis.oom.OomMessage;
import bufq.analysis.oom.OomReport;
import bufq.analysis.oom.OomText;
import bufq.units.PrintedSize;

import java.util.ArrayList;
import java.util.List;

/**
 * The capacity policy, one place for every client (the shell's {@code fit}, {@code oom},
 * {@code advise}, {@code forecast fit} and the scripts API): which capacity a question is asked
 * against, when a message's stated capacity is adopted, and what the loaded messages say failed.
 * Plain values in, plain values out: no session, no settings object.
 */
public final class Capacities {
    private Capacities() {}

    /** What a session says about capacity: the user's choice, a device (or null), and a reservation (-1 when none). */
    public record Said(CapacityChoice choice, Devices.Device device, long reservedBytes, String reservedText) {
        public static final Said NONE = new Said(CapacityChoice.NONE, null, -1, "none");
    }

    /**
     * The capacity said: {@code set capacity} (a size, {@code host}, {@code unlimited}), else the
     * device's, less the reservation; null when neither is said. No capacity is guessed: an XLA:CPU
     * run's limit (a {@code ulimit -v}, the machine's memory) is not in its message, and what else the
     * process held is not in the dumps ({@link FitReport#of} says what the message's figures bound).
     *
     * @throws IllegalArgumentException when the reservation is not below the capacity
     */
    public static Capacity resolve(Said said) {
        Capacity c;
        if (said.choice().kind() != CapacityChoice.Kind.NONE) c = said.choice().capacity("set capacity " + said.choice());
        else if (said.device() != null) c = said.device().capacity();
        else return null;
        if (said.reservedBytes() < 0) return c;
        if (said.reservedBytes() >= c.bytes())
            throw new IllegalArgumentException("reserved (" + said.reservedText() + ") is not below the capacity (" + said.choice() + ")");
        return new Capacity(c.bytes(), said.reservedBytes(), c.source() + "; set reserved " + said.reservedText());
    }

    /**
     * A capacity the messages state (TPU's "Used X of Y hbm", BFC's "Limit:", an {@code #allocation}'s
     * "exceed memory (size=C)"), to adopt when the session says none: the least byte count that
     * prints as the figure (so a set that fits under it fits the device).
     *
     * @param bytes   the capacity
     * @param message which message states it (1-based)
     * @param note    one line telling the user it was taken
     */
    public record Stated(long bytes, int message, String note) {}

    /** The capacity the messages state, or null when none states one or two state different ones. */
    public static Stated stated(OomText text) {
        PrintedSize stated = null;
        int message = 0;
        for (int i = 0; i < text.messages().size(); i++) {
            // a vmem or smem capacity is that memory's (16 MiB, 1 MiB), never the HBM that fit checks
            PrintedSize c = text.messages().get(i).deviceCapacity();
            if (c == null || c.low() <= 0) continue;
            if (stated != null && stated.low() != c.low()) return null;
            if (stated == null) message = i + 1;
            stated = c;
        }
        if (stated == null) return null;
        return new Stated(stated.low(), message, "capacity " + stated.low() + " B taken from message " + message + " (it states "
                + stated.text() + (stated.isExact() ? "" : ", the least byte count that prints so")
                + "): 'fit' checks against it; 'set capacity' changes it");
    }

    /**
     * What the messages of {@code text} say failed, joined to {@code modules} (the join {@code oom}
     * prints, its first-ranked module): the requested size (the allocation's where it prints so), and
     * the capacity and in-use figures where stated.
     *
     * @param source the messages' file, as results name it ("message 1 of run.log")
     */
    public static List<Failure> failures(OomText text, String source, List<HloModule> modules) {
        List<Failure> out = new ArrayList<>();
        for (OomReport.Join j : OomReport.joins(text, modules)) {
            OomMessage m = j.message();
            if (j.module() == null || m.requested() == null) continue;
            long requested = j.allocation() != null && m.requested().contains(j.allocation().size()) ? j.allocation().size() : m.requested().low();
            out.add(new Failure(j.module().handle(), requested, m.deviceCapacity() == null ? -1 : m.deviceCapacity().low(),
                    m.used() == null ? -1 : m.used().low(), "message " + j.number() + " of " + source));
        }
        return out;
    }
}
