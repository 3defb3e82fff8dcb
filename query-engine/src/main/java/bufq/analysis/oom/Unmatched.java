package bufq.analysis.oom;

import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;

import bufq.units.PrintedSize;
import java.util.List;

/** What a message's size likely was when no loaded module has an allocation of it, and what to load. */
final class Unmatched {
    private Unmatched() {}

    static String why(OomMessage msg, List<HloModule> loaded) {
        if (loaded.isEmpty()) return "no modules loaded";
        String size = msg.requested() == null ? "the requested size" : msg.requested().describe();
        return switch (msg.family()) {
            case TPU_BUFFER -> "an array (an argument transfer, or an output the caller keeps), not a program's "
                    + "allocation: what other programs and live arrays held decided it" + sameSizedValue(msg, loaded);
            case TPU_PROGRAM_LOAD -> "a program's reservation at load (its code and constants), which buffer "
                    + "assignment does not list" + (msg.program() == null ? "" : "; program " + msg.program() + " is not loaded");
            case TPU_COMPILE -> "no loaded module's totals or buffers match: XLA:TPU writes the failing compile's buffer "
                    + "assignment before it refuses the program, so its dump is in the run's --xla_dump_to directory";
            case SPARSECORE -> "the program failed to compile, so its own dump may not exist, and no loaded "
                    + "module's figures or buffers match";
            default -> "no loaded module has an allocation of " + size + ": the failing program is not loaded, or the "
                    + "size was an argument transfer or another program's buffer" + sameSizedValue(msg, loaded);
        };
    }

    static String next(OomMessage msg, List<HloModule> loaded) {
        return switch (msg.family()) {
            case TPU_BUFFER -> "load the dumps of every program the process ran, then fit";
            case TPU_PROGRAM_LOAD -> msg.program() == null ? "load the named program's dump"
                    : "load the dump of " + msg.program() + " (module_NNNN." + msg.program() + ".*)";
            case TPU_COMPILE -> "load the failing run's dump directory (XLA_FLAGS=--xla_dump_to=DIR)";
            case SPARSECORE -> "load the dump of a smaller configuration that compiled";
            default -> "load the dump directory of the run that failed (XLA_FLAGS=--xla_dump_to=DIR)";
        };
    }

    /** {@code "; value 42 x.1 of M has that size (a parameter?)"}, or empty. */
    private static String sameSizedValue(OomMessage msg, List<HloModule> loaded) {
        PrintedSize s = msg.requested();
        if (s == null) return "";
        for (HloModule m : loaded) {
            for (BufferAllocation a : m.allocations()) {
                if (a.isParameter() && s.contains(a.size()))
                    return "; parameter " + a.parameter() + " of " + m.handle() + " has that size (an argument transfer)";
            }
        }
        for (HloModule m : loaded) {
            for (HloValue v : m.values()) {
                if (s.contains(v.logicalSize()))
                    return "; value " + v.id() + " " + v.label() + " of " + m.handle() + " has that size";
            }
        }
        return "";
    }
}
