package bufq.analysis.check;

import bufq.analysis.peak.ClaimedPeak;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.model.BufferAllocation;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.model.PeakClaim;
import bufq.model.TilingModel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.function.BiConsumer;

/** The built-in checks and the runner that turns rules into a {@link CheckReport}. */
public final class Checks {
    private Checks() {}

    /** A rule from a name and a body. */
    public record Rule(String name, BiConsumer<HloModule, Reporter> body) implements CheckRule {
        @Override public void run(HloModule m, Reporter r) { body.accept(m, r); }
    }

    /**
     * overlap, outside-allocation, padded-size, orphan-live-range, total-bytes, peak-claim, duplicate-id,
     * inverted-range.
     *
     * @param tiling the padded-size rule ({@code set tiling}); null means XLA's TPU rule
     */
    /** {@code check}: the built-in checks and then {@code extra} (e.g. script rules) on one module. */
    public static CheckReport check(HloModule m, TilingModel tiling, List<? extends CheckRule> extra) {
        List<CheckRule> rules = new ArrayList<>(builtins(tiling));
        if (extra != null) rules.addAll(extra);
        return run(m, rules);
    }

    public static List<CheckRule> builtins(TilingModel tiling) {
        TilingModel t = tiling == null ? TilingModel.TPU : tiling;
        return List.of(new OverlapCheck(), new Rule("outside-allocation", Checks::outside),
                new Rule("padded-size", (m, r) -> paddedSize(m, t, r)), new Rule("orphan-live-range", Checks::orphans),
                new Rule("total-bytes", Checks::totalBytes), new Rule("peak-claim", Checks::peakClaim),
                new Rule("duplicate-id", Checks::duplicateIds), new Rule("inverted-range", Checks::invertedRanges));
    }

    /** Ids are unique in XLA's dumps; a shared one makes lookups by id see only the first value. */
    static void duplicateIds(HloModule m, Reporter r) {
        for (List<HloValue> group : m.valuesSharingAnId()) {
            List<String> labels = group.stream().map(HloValue::label).toList();
            r.error(labels.get(0), "value id " + group.get(0).id() + " is shared by " + group.size() + " values: "
                    + String.join(", ", labels));
        }
        // Blocks of the Used values section, once a statement or the load has read it (check leaves it unread).
        for (var e : m.blocksSharingAnId().entrySet()) {
            HloValue v = m.value(e.getKey());
            r.error(v == null ? "id " + e.getKey() : v.label(), "value id " + e.getKey() + " heads " + e.getValue()
                    + " blocks of the Used values section; the last one's positions and uses are kept");
        }
    }

    /** A live range that starts after it ends (the reader warns too): the value is never live. */
    static void invertedRanges(HloModule m, Reporter r) {
        for (HloValue v : m.values()) {
            if (v.hasRange() && v.rangeStart() > v.rangeEnd())
                r.error(v.label(), "live range " + v.rangeStart() + "-" + v.rangeEnd() + " starts after it ends");
        }
    }

    /**
     * Runs the rules in order; a rule that throws yields an ERROR finding and the others still run.
     *
     * @throws CancellationException when the thread is interrupted (Ctrl-C in the shell) before or
     *         during a rule: a cancelled check has no report, and the rule it stopped did not fail
     */
    public static CheckReport run(HloModule m, List<? extends CheckRule> rules) {
        List<Finding> findings = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (CheckRule rule : rules) {
            String name = rule.name();
            names.add(name);
            if (Thread.currentThread().isInterrupted()) throw new CancellationException("check cancelled");
            try {
                rule.run(m, (s, subject, message) -> findings.add(new Finding(name, s, subject, message)));
            } catch (CancellationException e) {
                throw e;
            } catch (RuntimeException | StackOverflowError e) {
                // A script stopped by Ctrl-C throws its own failure; the interrupt says whose doing it was.
                if (Thread.currentThread().isInterrupted()) throw new CancellationException("check cancelled");
                findings.add(new Finding(name, Severity.ERROR, m.handle(), "check failed: "
                        + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())));
            }
        }
        return new CheckReport(m.handle(), names, findings);
    }

    static void outside(HloModule m, Reporter r) {
        for (HloValue v : m.values()) {
            BufferAllocation a = m.allocation(v.allocation());
            if (a == null) {
                r.error(v.label(), "assigned to allocation " + v.allocation() + ", which the dump does not list");
            } else if (v.offset() < 0 || v.size() < 0) {
                r.error(v.label(), "negative offset or size (offset " + v.offset() + ", size " + v.size() + ")");
            } else if (a.sizeExact() && v.offset() + v.size() > a.size()) {
                r.error(v.label(), "bytes [" + v.offset() + ", " + (v.offset() + v.size()) + ") end past allocation "
                        + a.index() + " of " + a.size() + " bytes");
            }
        }
    }

    /**
     * Array values with a layout are judged: on TPU dumps all of them (an untiled one must be its
     * logical size), elsewhere those with tiles, and every one under a tiling rule other than XLA's
     * TPU rule (a CPU or GPU layout has no tiles, so the TPU rule has nothing to say about it).
     */
    static void paddedSize(HloModule m, TilingModel t, Reporter r) {
        boolean all = t != TilingModel.TPU || "tpu".equals(m.info().backend());
        for (HloValue v : m.values()) {
            if (!v.shape().isArray() || !v.shape().hasLayout()) continue;
            if (!all && v.shape().tiles().isEmpty()) continue;
            long want = t.paddedBytes(v, m);
            if (want != v.size()) {
                r.error(v.label(), "size " + v.size() + " but the " + t.name() + " tiling rule gives " + want
                        + " for " + v.shape().text());
            }
        }
    }

    static void orphans(HloModule m, Reporter r) {
        OrphanRanges.report(m, r);
    }

    static void totalBytes(HloModule m, Reporter r) {
        Long claimed = m.info().claimedTotalBytes();
        if (claimed == null || m.allocations().isEmpty()) return;
        boolean exact = m.allocations().stream().allMatch(BufferAllocation::sizeExact);
        long sum = m.totalBytes();
        if (!exact) {
            r.info(m.handle(), "allocation sizes come from a rounded report; sum " + sum + " vs Total bytes used "
                    + claimed + " not compared");
        } else if (sum != claimed) {
            r.error(m.handle(), "allocations sum to " + sum + " bytes but the dump says Total bytes used: " + claimed
                    + " (difference " + (sum - claimed) + ")");
        }
    }

    static void peakClaim(HloModule m, Reporter r) {
        PeakClaim c = m.info().peakClaim();
        if (c == null || m.steps() == 0) return;
        if (c.time() < 0 || c.time() >= m.steps()) {
            r.error(m.handle(), "claimed peak step " + c.time() + " is outside the schedule 0.." + (m.steps() - 1));
            return;
        }
        List<HloValue> live = LiveValues.at(m, c.time());
        long at = Liveness.of(m).liveBytesAllSpaces(c.time());   // XLA sums every memory space
        if (c.cumulative()) {
            if (at != c.claimedBytes()) {
                r.error(m.handle(), "the dump claims " + c.claimedBytes() + " bytes live at step " + c.time()
                        + " (last cumulative figure) but the values live there sum to " + at);
            }
        } else {
            Map<String, Integer> diff = new HashMap<>();
            for (PeakClaim.Entry e : c.entries()) diff.merge(e.key(), 1, Integer::sum);
            for (HloValue v : live) {
                String k = diff.containsKey(v.key()) ? v.key() : v.name();
                diff.merge(k, -1, Integer::sum);
            }
            diff.values().removeIf(n -> n == 0);
            if (!diff.isEmpty()) {
                r.warn(m.handle(), "the names listed live at step " + c.time() + " differ from the values live there: "
                        + diff);
            }
            // Old printers weighed every value by its instruction's whole shape.
            long byInstruction = ClaimedPeak.bytesByInstruction(m, c.time());
            if (byInstruction != c.claimedBytes()) {
                r.warn(m.handle(), "the sizes listed live at step " + c.time() + " sum to " + c.claimedBytes()
                        + " bytes but the values live there weigh " + byInstruction + " by their instructions' shapes");
            }
        }
        int xla = ClaimedPeak.xlaMoment(m);
        if (xla != c.time()) {
            r.warn(m.handle(), "the dump labels step " + c.time() + " its peak but emulating XLA's "
                    + "ComputePeakMemoryMoment picks step " + xla);
        }
    }
}
