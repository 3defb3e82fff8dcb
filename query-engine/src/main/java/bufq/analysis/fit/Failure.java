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
 * @param refusal       what a compile-time refusal says, or null for a failure at run time
 */
public record Failure(String program, long requestedBytes, long capacityBytes, long usedBytes, String source,
                      Refusal refusal) {
    /** What a process under a limit holds that no dump shows (measured with jaxlib 0.10.2 loaded). */
    public static final String PROCESS = "under ulimit -v a Python process with jaxlib loaded holds about 1.4 GB";

    /**
     * That figure in bytes: the address space ({@code VmSize}) of a Python process with jax 0.10.2 and
     * optax imported, after one small jitted call on XLA:CPU, 1,487,056 KiB. The least the process holds:
     * three real training steps under {@code ulimit -v} held 1.7 to 2.7 GB beside their programs.
     */
    public static final long PROCESS_BYTES = 1_487_056L * 1024;

    /** A failure at run time: a request of {@code requestedBytes} that could not be met. */
    public Failure(String program, long requestedBytes, long capacityBytes, long usedBytes, String source) {
        this(program, requestedBytes, capacityBytes, usedBytes, source, null);
    }

    /**
     * A compile refused for what it needs in all: XLA:TPU's {@code the total memory required for HLO
     * temporaries (X) exceeds available HBM (Y)}, whose X is every HBM (colour 0) allocation of the
     * program, as the memory-usage report's {@code Total bytes} sums them.
     *
     * @param dumpBytes    the failing dump's colour-0 allocations in all: what X is, to the byte
     * @param overLo       the least excess the message's printed X and Y allow ({@code X.lo - Y.hi})
     * @param overHi       the most ({@code X.hi - Y.lo})
     * @param says         the message's figures in words
     */
    public record Refusal(long dumpBytes, long overLo, long overHi, String says) {}

    /** A compile refused, as {@link Refusal} says; {@code neededBytes} is the message's X (its least). */
    public static Failure refused(String program, long neededBytes, long capacityBytes, String source, Refusal refusal) {
        return new Failure(program, -1, capacityBytes, neededBytes, source, refusal);
    }

    /** Whether the compile refused the program (no single request failed). */
    public boolean compileTime() { return refusal != null; }

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
        if (compileTime()) return refusedUnder(capacity, s, notes);
        long known = s.heldBeforeBytes() + heldByProgram(s.program());
        long least = capacity.bytes() - requestedBytes - known + 1;
        String how = "allocating " + requestedBytes + " B failed with at least " + known + " B held (" + Units.human(known)
                + ": " + held(s.program()) + ")";
        if (usedBytes >= 0 && usedBytes - known > least) {
            least = usedBytes - known;
            how = "it says " + usedBytes + " B were in use, of which " + held(s.program()) + " are " + known + " B";
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
                + " itself: " + PROCESS + "; other programs' arrays)"
                + " or a limit below the capacity; taken as reserved, so what it is remains unknown");
        return capacity.withReserved(least, "reserved " + Units.human(least) + " assumed from " + source);
    }

    /**
     * The most the device could have offered these programs, as this message's figures bound it, for
     * a run whose capacity is not known (XLA:CPU's message states none): allocating the request failed
     * with at least the arrays kept before the program and its arguments held, so less than their sum
     * plus the request was free to them. Null when the program is not among {@code steps}. What else
     * the process held is unknown, so a set that fits under the bound may still fail. Null too for a
     * refused compile: it requested nothing, and its message states the capacity.
     */
    public Capacity bound(List<Fit.Step> steps, List<String> notes) {
        if (compileTime()) return null;
        Fit.Step s = null;
        for (Fit.Step x : steps) if (x.program().handle().equals(program)) s = x;
        if (s == null) return null;
        long known = s.heldBeforeBytes() + heldByProgram(s.program());
        long most = known + requestedBytes - 1;
        long ran = 0;   // the programs before it ran: at least what each held was available
        for (Fit.Step x : steps) if (x.order() < s.order()) ran = Math.max(ran, x.totalBytes());
        notes.add("capacity unknown: " + (capacityBytes >= 0 ? "" : "the message states none, and ") + "what else the process held"
                + " is not in the dumps (the runtime and the process's own memory: " + PROCESS + " of it); set capacity to the limit"
                + " the run had");
        notes.add("the bound (" + source + "): allocating " + requestedBytes + " B failed with at least " + known + " B held ("
                + Units.human(known) + ": " + held(s.program()) + "), so at most " + most + " B ("
                + Units.human(most) + ") was free to these programs" + (ran > 0 ? "; the programs before it ran, so at least "
                + Units.human(ran) + " was" : "") + ". A change must bring " + program + " under the bound to have a chance;"
                + " one that does may still fail");
        return new Capacity(most, 0, "at most: the bound " + source + " implies (the capacity is unknown)", true);
    }

    /**
     * What the failing program itself held when its request failed: its arguments, and on XLA:CPU the
     * outputs allocated before the request. The CPU runtime makes a program's buffer table in
     * allocation order (PjRt's {@code CreateBufferTable}), so outputs numbered below the failing temp
     * were already allocated; counted only beside the arguments, they were counted again in what the
     * program needs. A real recommender step (26 embedding tables, Adam) read as 1.9 GiB over because
     * its 1.9 GiB of new tables were in both; 1.36 GB saved was enough.
     */
    private long heldByProgram(Program p) {
        return Math.max(0, p.sizes().argumentBytes()) + outputsBefore(p);
    }

    /** The bytes of {@code p}'s outputs allocated before the failing request (XLA:CPU only; else 0). */
    private long outputsBefore(Program p) {
        if (!"cpu".equals(p.backend())) return 0;
        int request = p.tempAllocation();
        for (HeldArray a : p.arrays())   // an output of exactly the requested size is the request
            if (a.isOutput() && !a.isParameter() && a.bytes() == requestedBytes) request = Math.min(request < 0 ? a.allocation() : request, a.allocation());
        long bytes = 0;
        for (HeldArray a : p.arrays()) if (a.isOutput() && !a.isParameter() && a.allocation() < request) bytes += a.bytes();
        return bytes;
    }

    /** What {@link #heldByProgram} counts, in words, with the arrays kept before it. */
    private String held(Program p) {
        long out = outputsBefore(p);
        return "the arrays kept before " + program + " and its arguments" + (out == 0 ? ""
                : ", and " + Units.human(out) + " of its outputs, which XLA:CPU allocates before the failing request");
    }

    /**
     * A refused compile: the program alone needs more than the capacity. Agrees when fit finds so;
     * else (the dump's figures fall short of the message's) the rest is taken as reserved.
     */
    private Capacity refusedUnder(Capacity capacity, Fit.Step s, List<String> notes) {
        String said = " (" + refusal.says() + ")";
        long over = refusal.dumpBytes() - capacity.offeredBytes();
        String byDump = "; the dump's HBM (color 0) allocations but thread-local ones total " + refusal.dumpBytes() + " B, over the "
                + capacity.offeredBytes() + " B offered by " + over + " B" + (over >= refusal.overLo() && over <= refusal.overHi()
                ? ", within the " + refusal.overLo() + ".." + refusal.overHi() + " B the message's figures allow"
                : ", not the " + refusal.overLo() + ".." + refusal.overHi() + " B the message's figures allow (another capacity, or not this compile's dump?)");
        if (!s.fitsAlone()) {
            notes.add(source + " agrees: the compile refused " + program + said + byDump + "; fit: needs "
                    + Units.human(s.needsBytes()) + " of " + Units.human(s.offeredBytes()) + " offered, over by "
                    + Units.human(s.aloneOverBytes()) + " (" + s.aloneOverBytes() + " B)");
            return capacity;
        }
        long least = Math.min(capacity.bytes() - 1, Math.max(usedBytes - s.needsBytes(), capacity.bytes() - s.needsBytes() + 1));
        notes.add(source + " says the compile refused " + program + said + byDump + "; fit's figures need "
                + s.needsBytes() + " B: at least " + least + " B (" + Units.human(least) + ") more is counted by the"
                + " compiler or offered to others; taken as reserved");
        return capacity.withReserved(least, "reserved " + Units.human(least) + " assumed from " + source);
    }
}
