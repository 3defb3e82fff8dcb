package bufq.analysis.fit;


import bufq.units.Units;
import java.util.List;

/**
 * What an out-of-memory message says happened: {@code program} failed to allocate {@code
 * requestedBytes} on a device of {@code capacityBytes} with {@code usedBytes} in use, the last two
 * where the message states them. {@code fit} takes it as evidence: it never reports that the program
 * fits the capacity the message says it failed on, and assumes as reserved what else must have been
 * held for the failure to happen.
 *
 * @param capacityBytes -1 when the message states none (XLA:CPU's does not)
 * @param usedBytes     -1 when the message states none
 * @param source        how the result names the message ("message 1 (line 4)")
 */
public record Failure(String program, long requestedBytes, long capacityBytes, long usedBytes, String source) {

    /**
     * The capacity under which the failure is what {@link Fit#steps} computes: {@code capacity} with
     * its reservation raised, where it has to be, to the least that makes the failing program not fit
     * among {@code steps} (run under any capacity: held bytes do not depend on it). At the failing
     * request the device held at least the arrays kept before the program and the program's
     * arguments ({@code known}); the request failed, so {@code known + R + reserved > capacity}, and
     * the reservation is at least {@code capacity - R - known + 1}, or {@code used - known} where the
     * message states its in-use figure. Returns {@code capacity} unchanged when the failure is
     * explained without more (the program does not fit), or does not apply (another capacity, a
     * program not among these); {@code notes} gets one line saying which and why.
     */
    public Capacity believe(Capacity capacity, List<Fit.Step> steps, List<String> notes) {
        Fit.Step s = null;
        for (Fit.Step x : steps) if (x.program().handle().equals(program)) s = x;
        if (s == null) {
            notes.add(source + " names " + program + ", which is not among the programs fit: its failure is not used");
            return capacity;
        }
        if (capacity.bytes() == Long.MAX_VALUE) {
            notes.add(source + " says " + program + " failed; with capacity unlimited nothing fails, so the failure is not used");
            return capacity;
        }
        if (capacityBytes >= 0 && capacityBytes != capacity.bytes()) {
            notes.add(source + " states a capacity of " + capacityBytes + " B, not this one (" + capacity.bytes()
                    + " B): its failure is not used");
            return capacity;
        }
        long args = Math.max(0, s.program().sizes().argumentBytes());
        long known = s.heldBeforeBytes() + args;
        long least = capacity.bytes() - requestedBytes - known + 1;
        String how = "allocating " + requestedBytes + " B failed with at least " + known + " B held (" + Units.human(known)
                + ": the arrays kept before " + program + " and its arguments)";
        if (usedBytes >= 0 && usedBytes - known > least) {
            least = usedBytes - known;
            how = "it says " + usedBytes + " B were in use, of which the arrays kept before " + program
                    + " and its arguments are " + known + " B";
        }
        // the program needs R beside its arguments only when R is one of its allocations: else make sure
        least = Math.max(least, capacity.bytes() - s.totalBytes() + 1);
        if (least <= capacity.reservedBytes()) {
            if (!s.fits() || capacity.offeredBytes() < s.totalBytes())
                notes.add(source + " agrees: " + program + " does not fit here without assuming more held");
            return capacity;
        }
        least = Math.min(least, capacity.bytes() - 1);
        notes.add(source + " says " + program + " failed: " + how + " under " + capacity.bytes() + " B, so at least "
                + least + " B (" + Units.human(least) + ") more was in use: outside the dumps (the runtime, the process"
                + " itself, other programs' arrays) or a limit below the capacity; taken as reserved");
        return capacity.withReserved(least, "reserved " + Units.human(least) + " assumed from " + source);
    }
}
