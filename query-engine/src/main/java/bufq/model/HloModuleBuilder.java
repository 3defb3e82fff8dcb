package bufq.model;

import java.util.List;
import java.util.function.Supplier;

/**
 * The one way an {@link HloModule} is made: the readers, what-if, forecast and tests each set the
 * parts they have and {@link #build} once. Parts not set are empty; instructions come either whole
 * ({@link #instructions}) or behind a handle that reads them on first use ({@link #details}).
 */
public final class HloModuleBuilder {
    private final HloModule.Info info;
    private List<BufferAllocation> allocations = List.of();
    private List<HloValue> values = List.of();
    private List<String> sequence = List.of();
    private List<LoadWarning> warnings = List.of();
    private int warningCount = -1;
    private Supplier<List<HeapEvent>> heapEvents = List::of;
    private UsedValues.Handle details;
    private List<HloInstruction> instructions = List.of();

    /** A module of {@code info}, its parts set next. */
    public HloModuleBuilder(HloModule.Info info) { this.info = info; }

    public HloModuleBuilder allocations(List<BufferAllocation> a) { allocations = a; return this; }
    public HloModuleBuilder values(List<HloValue> v) { values = v; return this; }

    /** The schedule: instruction names in step order. */
    public HloModuleBuilder sequence(List<String> s) { sequence = s; return this; }

    /** The instructions, read already (values' positions and uses computed from them). */
    public HloModuleBuilder instructions(List<HloInstruction> i) { instructions = i; details = null; return this; }

    /**
     * The instructions, and the values' positions and uses, from {@code d}: read already, or read on
     * first use (values made by {@link HloValue#deferred} with the same {@code d}).
     */
    public HloModuleBuilder details(UsedValues.Handle d) { details = d; return this; }

    /** The warnings kept (the reader caps them); their count is their number. */
    public HloModuleBuilder warnings(List<LoadWarning> w) { return warnings(w, w.size()); }

    /** The warnings kept and how many the reader raised, which may be more. */
    public HloModuleBuilder warnings(List<LoadWarning> w, int count) { warnings = w; warningCount = count; return this; }

    /** The heap-simulator trace, in order (proto dumps; empty for text). */
    public HloModuleBuilder heapEvents(List<HeapEvent> e) {
        List<HeapEvent> copy = List.copyOf(e);
        heapEvents = () -> copy;
        return this;
    }

    /** The trace's events made by {@code e} on first use (once; it must not fail: the reader checked the trace). */
    public HloModuleBuilder heapEvents(Supplier<List<HeapEvent>> e) { heapEvents = e; return this; }

    public HloModule build() {
        UsedValues.Handle d = details != null ? details : UsedValues.Handle.of(UsedValues.of(instructions));
        return new HloModule(info, allocations, values, sequence, warnings, Math.max(warningCount, warnings.size()), heapEvents, d);
    }
}
