package bufq.analysis.oom;

import bufq.units.PrintedSize;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The messages of a paste, one per failure: a message printed again (glog's line, then the
 * exception's; the same traceback twice) is a repeat of the first, a bare copy of a message whose
 * other copy carries the report stands for that one, and XLA's {@code Out of memory while trying to
 * allocate N bytes} right after the BFC allocator's line for the same request is that request's exact
 * size. A copy that says less than another of the same failure (XLA:TPU's status payload repeating
 * the report's first line) is a repeat of the fuller one. At most {@link OomReader#MAX_MESSAGES} distinct messages are kept; the rest are counted.
 */
final class FailureSet {
    /** The most repeat lines kept per message (the count goes on). */
    static final int MAX_REPEAT_LINES = 1_000;

    /** A kept message and the copies of it found so far: linear in the copies. */
    private static final class Kept {
        OomMessage message;
        final List<Integer> repeats = new ArrayList<>();
        final List<OomWarning> warnings = new ArrayList<>();
        int times = 1;

        Kept(OomMessage m) { message = m; }

        void repeat(OomMessage copy) {
            times++;
            if (repeats.size() < MAX_REPEAT_LINES) repeats.add(copy.line());
            for (OomWarning w : copy.warnings())
                if (warnings.size() < 100 && !message.warnings().contains(w) && !warnings.contains(w)) warnings.add(w);
        }
    }

    private final List<Kept> kept = new ArrayList<>();
    private final Map<String, Integer> byKey = new HashMap<>();
    private final Map<String, Integer> byCore = new HashMap<>();
    private int skipped, firstSkipped = -1;

    void add(OomMessage m) {
        String key = key(m), core = core(m);
        Integer same = byKey.get(key);
        if (same != null) {
            kept.get(same).repeat(m);
            return;
        }
        if (!kept.isEmpty() && sameRequest(kept.get(kept.size() - 1).message, m)) {
            Kept bfc = kept.get(kept.size() - 1);
            bfc.repeat(m);
            bfc.message = bfc.message.withRequest(m.requested());
            return;
        }
        Integer sameCore = byCore.get(core);
        Kept k = sameCore == null ? null : kept.get(sameCore);
        if (k != null && (bare(k.message) || bare(m) || covers(k.message, m) || covers(m, k.message))) {
            if (!bare(m) && !covers(k.message, m)) {
                // the copy with the report stands for the failure, at the line it was first printed
                int first = k.message.line();
                k.repeat(k.message);
                k.repeats.set(k.repeats.size() - 1, m.line());
                k.message = m.firstPrintedAt(first);
                byKey.put(key, sameCore);
            } else {
                k.repeat(m);
            }
            return;
        }
        if (kept.size() >= OomReader.MAX_MESSAGES) {
            if (skipped++ == 0) firstSkipped = m.line();
            return;
        }
        byKey.put(key, kept.size());
        byCore.putIfAbsent(core, kept.size());
        kept.add(new Kept(m));
    }

    List<OomMessage> kept() {
        List<OomMessage> out = new ArrayList<>();
        for (Kept k : kept) out.add(k.times == 1 ? k.message : k.message.withRepeats(k.repeats, k.times, k.warnings));
        return out;
    }

    /** What was past the bound, as a warning at the first message not kept. */
    List<OomWarning> warnings() {
        if (skipped == 0) return List.of();
        return List.of(new OomWarning(firstSkipped, Units.grouped(skipped) + " more distinct message" + (skipped == 1 ? "" : "s")
                + " from here not read (at most " + Units.grouped(OomReader.MAX_MESSAGES) + " are kept)"));
    }

    /** XLA's bare error with the exact size of the BFC request just before it. */
    private static boolean sameRequest(OomMessage bfc, OomMessage m) {
        return bfc.family() == Family.BFC && (m.family() == Family.GPU_ASSIGNMENT || m.family() == Family.CPU) && bare(m)
                && bfc.requested() != null && m.requested() != null && m.requested().isExact()
                && bfc.requested().contains(m.requested().low()) && !bfc.requested().isExact();
    }

    /**
     * Whether {@code a} says all that {@code b} says: the same headline figures where {@code b} prints
     * them, each of its totals, and no buffers of its own. XLA:TPU's status payload
     * ({@code [type.googleapis.com/tensorflow.tpu.CompilationResultProto='...Ran out of memory ...
     * [truncated]']}) repeats the report's first line so.
     */
    private static boolean covers(OomMessage a, OomMessage b) {
        if (!b.buffers().isEmpty() || !b.programTotals().isEmpty()) return false;
        if (!same(a.capacity(), b.capacity()) || !same(a.used(), b.used()) || !same(a.free(), b.free())
                || !same(a.exceeded(), b.exceeded())) return false;
        if (b.allocationIndex() >= 0 && b.allocationIndex() != a.allocationIndex()) return false;
        if (b.device() != null && !b.device().equals(a.device())) return false;
        for (Map.Entry<String, PrintedSize> e : b.figures().entrySet())
            if (!same(a.figures().get(e.getKey()), e.getValue())) return false;
        return true;
    }

    /** {@code b} is null (not printed) or prints as {@code a}. */
    private static boolean same(PrintedSize a, PrintedSize b) {
        return b == null || a != null && text(a).equals(text(b));
    }

    /** A message without a report: only its headline's figures. */
    private static boolean bare(OomMessage m) {
        return m.figures().isEmpty() && m.buffers().isEmpty() && m.programTotals().isEmpty() && m.capacity() == null
                && m.used() == null;
    }

    private static String core(OomMessage m) {
        return m.family() + "|" + text(m.requested()) + "|" + m.program() + "|" + m.memorySpace();
    }

    private static String key(OomMessage m) {
        StringBuilder b = new StringBuilder(core(m));
        b.append('|').append(text(m.capacity())).append('|').append(text(m.used())).append('|').append(text(m.free()))
                .append('|').append(text(m.exceeded())).append('|').append(m.allocationIndex()).append('|').append(m.device());
        for (Map.Entry<String, PrintedSize> e : m.figures().entrySet()) b.append('|').append(e.getKey()).append('=').append(text(e.getValue()));
        for (ListedBuffer x : m.buffers()) b.append('|').append(text(x.size())).append(' ').append(x.shape()).append(' ').append(x.label());
        return b.toString();
    }

    private static String text(PrintedSize s) { return s == null ? "-" : s.low() + ".." + s.high(); }
}
