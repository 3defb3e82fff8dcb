package bufq.analysis.fit;

import bufq.model.HloModule;
import bufq.units.PrintedSize;
import bufq.analysis.oom.Family;
import bufq.analysis.oom.OomMessage;
import bufq.analysis.oom.OomReport;
import bufq.analysis.oom.OomText;
import bufq.units.Units;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
     * A capacity the messages state (TPU's "Used X of Y hbm" and "exceeds available HBM (Y)", BFC's
     * "Limit:", an {@code #allocation}'s "exceed memory (size=C)"), to adopt unless the user set one:
     * it wins over a device's table figure, being what this compiler or runtime offered this program,
     * and over a capacity an earlier message stated. The least byte count that prints as the figure
     * (15.48G: every byte count that prints so is at least that), so a set that fits under it fits the
     * device.
     *
     * @param choice  the capacity to set; its {@link CapacityChoice#statedBy} names the message and file
     * @param message which message states it (1-based)
     * @param note    one line telling the user it was taken
     */
    public record Stated(CapacityChoice choice, int message, String note) {
        public long bytes() { return choice.bytes(); }
    }

    /**
     * The capacity the messages of {@code text} (the file {@code source}) state, to adopt over what
     * {@code said} names; null when the user set a capacity, none states one, or two state different
     * ones. A vmem or smem capacity is that memory's (16 MiB, 1 MiB), never the device memory fit checks.
     */
    public static Stated stated(OomText text, String source, Said said) {
        if (said.choice().kind() != CapacityChoice.Kind.NONE && said.choice().statedBy() == null) return null;
        PrintedSize stated = null;
        int message = 0;
        for (int i = 0; i < text.messages().size(); i++) {
            PrintedSize c = text.messages().get(i).deviceCapacity();
            if (c == null || c.low() <= 0) continue;
            if (stated != null && stated.low() != c.low()) return null;
            if (stated == null) message = i + 1;
            stated = c;
        }
        if (stated == null) return null;
        String by = "message " + message + " of " + source + " states " + stated.text()
                + (stated.isExact() ? "" : " (" + stated.low() + " B, the least byte count that prints so)");
        String over = said.device() == null ? ""
                : ", in place of device " + said.device().name() + "'s " + Units.human(said.device().capacity().offeredBytes());
        return new Stated(CapacityChoice.stated(stated.low(), by), message, "capacity " + stated.low() + " B taken from message "
                + message + " (it states " + stated.text() + (stated.isExact() ? "" : ", the least byte count that prints so")
                + over + "): 'fit' checks against it; 'set capacity' changes it");
    }

    /**
     * What the messages of {@code text} say failed, joined to {@code modules} (the join {@code oom}
     * prints, its first-ranked module): the requested size (the allocation's where it prints so), and
     * the capacity and in-use figures where stated; a compile XLA:TPU refused for its HBM total
     * ({@code the total memory required for HLO temporaries (X) exceeds available HBM (Y)}) as a
     * {@link Failure#refused} held to the joined dump's colour-0 total (less its thread-local allocations,
     * as the check counts it).
     *
     * @param source the messages' file, as results name it ("message 1 of run.log")
     */
    public static List<Failure> failures(OomText text, String source, List<HloModule> modules) {
        List<Failure> out = new ArrayList<>();
        for (OomReport.Join j : OomReport.joins(text, modules)) {
            OomMessage m = j.message();
            if (j.module() == null) continue;
            String named = "message " + j.number() + " of " + source;
            if (m.family() == Family.TPU_COMPILE && m.requested() == null && m.used() != null && m.deviceCapacity() != null) {
                PrintedSize cap = m.deviceCapacity();
                out.add(Failure.refused(j.module().handle(), m.used().low(), cap.low(), named,
                        new Failure.Refusal(OomReport.spaceTotal(j), m.used().low() - cap.high(), m.used().high() - cap.low(), says(m))));
                continue;
            }
            if (m.requested() == null) continue;
            long requested = j.allocation() != null && m.requested().contains(j.allocation().size()) ? j.allocation().size() : m.requested().low();
            out.add(new Failure(j.module().handle(), requested, m.deviceCapacity() == null ? -1 : m.deviceCapacity().low(),
                    m.used() == null ? -1 : m.used().low(), named));
        }
        return out;
    }

    /**
     * The compile-time failures of {@code text} in a memory space other than the device memory
     * (XLA:TPU's VMEM), one line each from the message's own figures (a kernel's scoped VMEM is not in
     * the dump): fit checks the device memory, so it states these beside it, and fails on them.
     */
    public static List<String> otherSpaces(OomText text, String source, List<HloModule> modules) {
        List<String> out = new ArrayList<>();
        for (OomReport.Join j : OomReport.joins(text, modules)) {
            OomMessage m = j.message();
            if (j.module() == null || m.family() != Family.TPU_COMPILE || m.deviceCapacity() != null || m.used() == null
                    || m.capacity() == null) continue;
            out.add(j.module().handle() + " does not fit " + m.memorySpace() + ": message " + j.number() + " of " + source
                    + " says it needs " + m.used().text() + " of " + m.capacity().text() + " " + m.memorySpace()
                    + (m.exceeded() == null ? "" : ", over by " + m.exceeded().text())
                    + (m.buffers().isEmpty() ? "" : " (its largest allocations are listed by 'oom'; a kernel's scoped "
                    + m.memorySpace() + " is not in the dump)"));
        }
        return out;
    }

    /**
     * A compile-time message's figures in words: {@code it says the program needs 22.72G of HBM
     * against 15.75G available, over by 6.97G}, the excess as printed or as the two printed figures imply.
     */
    static String says(OomMessage m) {
        PrintedSize used = m.used(), cap = m.capacity();
        String space = m.memorySpace() == null ? "hbm" : m.memorySpace();
        String over = m.exceeded() != null ? m.exceeded().text() : cap == null ? null : difference(used.text(), cap.text());
        return "it says the program needs " + used.text() + " of " + space.toUpperCase(Locale.ROOT)
                + (cap == null ? "" : " against " + cap.text() + " available") + (over == null ? "" : ", over by " + over);
    }

    /** {@code 22.72G} less {@code 15.75G} as the message would print it ({@code 6.97G}), or null when the units differ. */
    static String difference(String a, String b) {
        int n = a.length(), k = b.length();
        if (n < 2 || k < 2 || a.charAt(n - 1) != b.charAt(k - 1) || Character.isDigit(a.charAt(n - 1))) return null;
        try {
            return new BigDecimal(a.substring(0, n - 1)).subtract(new BigDecimal(b.substring(0, k - 1))).toPlainString() + a.charAt(n - 1);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
