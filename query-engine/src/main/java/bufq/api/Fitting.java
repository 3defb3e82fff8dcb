package bufq.api;

import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.Failure;
import bufq.analysis.fit.HeldArray;
import bufq.analysis.fit.FitReport;
import bufq.analysis.fit.Keep;
import bufq.analysis.fit.Program;
import bufq.analysis.sharding.Shardings;
import bufq.model.HloModule;
import bufq.table.Output;
import bufq.table.TextBlock;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The engine's answer to "will the programs fit": each program alone and all held together in
 * running order against the capacity a client says, with what a loaded out-of-memory message adds
 * (the failure it names, a failure in another memory). {@code fit} and the scripts ask it alike.
 */
public final class Fitting {
    private Fitting() {}

    /**
     * What a fit prints and how it ends.
     *
     * @param outputs   what to print
     * @param perDevice that the figures of SPMD programs are one device's, printed on its own after them; null for none
     * @param notes     lines said beside them (on stderr in the shell), after the outputs
     * @param failure   why it fails, null when the programs fit
     */
    public record Answer(List<Output> outputs, Output perDevice, List<String> notes, String failure) {
        public Answer {
            outputs = List.copyOf(outputs);
            notes = List.copyOf(notes);
        }
    }

    /**
     * A fit with its capacity resolved and the loaded messages joined: {@link #refusal} when it cannot
     * run, else {@link #run} on the programs.
     */
    public static final class Plan {
        private final Capacity capacity;
        private final List<String> spaces;
        private final List<Failure> failures;

        private Plan(Capacity capacity, List<String> spaces, List<Failure> failures) {
            this.capacity = capacity;
            this.spaces = spaces;
            this.failures = failures;
        }

        /**
         * With no capacity said and a message's failure in another memory (VMEM): that failure and
         * that the device memory needs a capacity to check; null when the fit can run.
         */
        public Answer refusal() {
            if (capacity != null || spaces.isEmpty()) return null;
            List<String> notes = new ArrayList<>(spaces);
            notes.add("the device memory (HBM) is not checked: set capacity SIZE or set device NAME");
            return new Answer(List.of(), null, notes, spaces.get(0));
        }

        /**
         * {@code programs} alone and held together in running order.
         *
         * @param loaded    every loaded module in running order, which orders the per-device notes
         * @param selection how the client chose them ({@code jit_a, jit_b}, {@code where ...}), "" for all
         * @param keep      what the programs before each one keep: all, none, parameters, outputs, PROGRAM[:...]
         * @param drop      what they do not
         * @throws IllegalArgumentException when a keep or drop names nothing; the message says what
         */
        public Answer run(List<HloModule> programs, List<HloModule> loaded, String selection, List<String> keep, List<String> drop) {
            List<Program> ps = new ArrayList<>();
            for (HloModule m : programs) ps.add(Program.of(m));
            FitReport r = FitReport.of(ps, capacity, new Keep(keep, drop), selection.isEmpty() ? "" : " " + selection, failures);
            // For SPMD programs: their figures are one device's, so the capacity compared is one device's too.
            List<String> perDevice = new ArrayList<>();
            Set<String> handles = new HashSet<>();
            for (HloModule m : programs) handles.add(m.handle());
            for (HloModule m : loaded) {
                String n = handles.contains(m.handle()) ? Shardings.header(m).perDeviceNote() : null;
                if (n != null) perDevice.add(m.handle() + ": " + n + "; the capacity is one device's");
            }
            String failure = r.failure();
            if (failure == null && !spaces.isEmpty()) failure = spaces.get(0);
            return new Answer(r.outputs(), perDevice.isEmpty() ? null : new TextBlock(String.join("\n", perDevice)), spaces, failure);
        }
    }

    /**
     * An array a program may keep between runs, as {@code fit keep}/{@code drop} name it.
     *
     * @param name  {@code PROGRAM:N} (allocation N)
     * @param role  parameter, output, or both
     * @param shape its shape, or null
     */
    public record Array(String name, String role, String shape, long bytes) {}

    /** The arrays {@code m} holds between runs (its parameters and outputs), for {@code keep} and {@code drop}. */
    public static List<Array> arrays(HloModule m) {
        List<Array> out = new ArrayList<>();
        for (HeldArray a : Program.of(m).arrays()) out.add(new Array(a.name(), a.role(), a.shape(), a.bytes()));
        return out;
    }

    /**
     * The fit {@code said} asks for; {@code oom} (or null) are the loaded messages and {@code loaded}
     * every loaded module in running order, which they join to (empty without messages).
     *
     * @throws IllegalArgumentException when the reservation is not below the capacity
     */
    public static Plan plan(CapacitySaid said, OomLog oom, List<HloModule> loaded) {
        List<String> spaces = oom == null ? List.of() : oom.otherSpaces(loaded);
        Capacity capacity = said.resolve();
        return new Plan(capacity, spaces, oom == null ? List.of() : oom.failures(loaded));
    }
}
