package bufq.analysis.fit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.PriorityQueue;
import java.util.concurrent.CancellationException;

/**
 * What to change so that a set of programs fits, each change checked by running {@link Fit#steps}
 * again with it: the fewest kept arrays to drop or donate (largest first, for each step that does
 * not fit, among the arrays held while it runs), or, for each program that does not fit, the
 * preallocated temp to cut and by how much.
 */
public final class Changes {
    private Changes() {}

    /**
     * @param kind      {@code drop}, {@code donate} or {@code cut temp}
     * @param target    the array ({@code PROGRAM:N}) or the program
     * @param bytes     what the change saves
     * @param runIn     the module to {@code use} before the statement, null when any will do
     * @param statement a statement to run that shows the change's effect
     */
    public record Change(String kind, String target, long bytes, String runIn, String statement, String why) {}

    /**
     * @param selection how {@code fit} named the programs ("" for all), written back into each statement
     */
    public static List<Change> of(List<Program> programs, Capacity capacity, Keep keep, String selection) {
        return of(programs, capacity, keep, selection, Fit.steps(programs, capacity, keep));
    }

    /**
     * As {@link #of(List, Capacity, Keep, String)} with {@code steps} already run under {@code capacity}.
     * O((P + A) log A) for P programs holding A arrays: the arrays enter a heap, largest first, as the
     * step after which they are held comes, and each is chosen at most once (a rescan of every held
     * array for every step over was quadratic). Checks the thread's interrupt (Ctrl-C, set timeout)
     * as it goes and throws {@link CancellationException} when it is set.
     */
    static List<Change> of(List<Program> programs, Capacity capacity, Keep keep, String selection, List<Fit.Step> steps) {
        List<Change> out = new ArrayList<>();
        if (Fit.firstOver(steps) == null) return out;
        // Arrays to drop: only helps the steps that fit alone.
        List<Fit.Kept> kept = Fit.kept(steps, keep);   // in the order they come to be held
        PriorityQueue<Fit.Kept> available = new PriorityQueue<>(
                Comparator.comparingLong((Fit.Kept k) -> k.array().bytes()).reversed().thenComparing(k -> k.array().program())
                        .thenComparingInt(k -> k.array().allocation()));
        List<HeldArray> drop = new ArrayList<>();
        boolean dropHelps = false;
        // the dropped arrays still held, in the order they stop being held: a running total, so each
        // step costs the arrays it adds and removes, not all dropped so far
        PriorityQueue<Fit.Kept> droppedHeld = new PriorityQueue<>(Comparator.comparingInt(Fit.Kept::heldUntil));
        Set<String> dropNames = new HashSet<>();
        long dropped = 0;
        int next = 0;
        for (Fit.Step s : steps) {
            cancelled();
            if (s.fits() || !s.fitsAlone()) continue;
            while (!droppedHeld.isEmpty() && droppedHeld.peek().heldUntil() < s.order()) dropped -= droppedHeld.poll().array().bytes();
            dropHelps = true;
            while (next < kept.size() && kept.get(next).heldFrom() <= s.order()) available.add(kept.get(next++));
            // arrays chosen at an earlier step were held then; those still held here count here too
            long need = s.overBytes() - dropped;
            for (HeldArray r : s.reads()) if (dropNames.contains(r.name())) need += r.bytes();
            // never an argument of this program (it reads it: dropping it is not possible), never one gone by now
            List<Fit.Kept> aside = new ArrayList<>();
            while (need > 0 && !available.isEmpty()) {
                Fit.Kept k = available.poll();
                if (k.heldUntil() < s.order()) continue;
                if (s.reads(k.array())) {
                    aside.add(k);
                    continue;
                }
                drop.add(k.array());
                dropNames.add(k.array().name());
                droppedHeld.add(k);
                dropped += k.array().bytes();
                need -= k.array().bytes();
            }
            available.addAll(aside);
        }
        if (dropHelps && !drop.isEmpty()) {
            Keep edited = keep.dropping(drop.stream().map(HeldArray::name).toList());
            boolean fixes = Fit.steps(programs, capacity, edited).stream().allMatch(s -> s.fits() || !s.fitsAlone());
            String statement = "fit" + selection + edited.text();
            boolean first = true;
            for (HeldArray a : drop) {
                String kind = a.isParameter() ? "donate" : "drop";
                String why = a.isParameter()
                        ? "a parameter of " + a.program() + " (" + a.shape() + "): donate it (donate_argnums) or delete it after the call"
                        : "an output of " + a.program() + " (" + a.shape() + "): do not keep it (del, or consume it first)";
                // the statement once, on the first row: it names the whole set
                out.add(new Change(kind, a.name(), a.bytes(), null, first ? statement : null,
                        why + (first && drop.size() > 1 ? "; with the " + (drop.size() - 1) + " below, one set" : "")
                                + (fixes ? "" : "; not enough alone, see the temp cuts")
                                + (capacity.bound() ? "; needed under the bound, perhaps not enough: the capacity is unknown" : "")));
                first = false;
            }
        }
        // Temp to cut: for each step over, by its overflow (a program over alone: by that).
        for (Fit.Step s : steps) {
            cancelled();
            if (s.fits()) continue;
            Program p = s.program();
            long over = s.fitsAlone() ? s.overBytes() : s.aloneOverBytes();
            long temp = p.sizes().tempBytes();
            String why = (capacity.bound() ? "at least (the capacity is a bound): " : "") + (s.fitsAlone()
                    ? "fits alone; with what is held before it, over by " + over + " B"
                    : "does not fit alone: needs " + p.needsBytes() + " B of " + s.offeredBytes() + " B offered");
            if (temp < over || p.tempAllocation() < 0) {
                out.add(new Change("cut temp", p.handle(), over, p.handle(), "peak",
                        why + "; its temp (" + Math.max(temp, 0) + " B) is smaller than that: arguments or outputs must shrink too"));
                continue;
            }
            double factor = Math.floor((double) (temp - over) / temp * 100) / 100;
            out.add(new Change("cut temp", p.handle(), over, p.handle(),
                    String.format(Locale.ROOT, "whatif scale where allocation = %d by %.2f", p.tempAllocation(), factor),
                    why + "; its temp (allocation " + p.tempAllocation() + ", " + temp + " B) at most " + (temp - over) + " B"));
        }
        return out;
    }

    private static void cancelled() {
        if (Thread.currentThread().isInterrupted()) throw new CancellationException("fit cancelled");
    }
}
