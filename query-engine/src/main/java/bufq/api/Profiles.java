package bufq.api;

import bufq.export.PprofExport;
import bufq.export.ProfileStacks;
import bufq.export.TraceExport;
import bufq.model.HloModule;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The engine's profiles of a module for other tools: a pprof profile of one step (go tool pprof) and
 * a Perfetto trace of every step. Each writes to the stream it is given and returns what it wrote,
 * in words.
 */
public final class Profiles {
    private Profiles() {}

    /**
     * The values live at {@code step} as a pprof profile, their stacks as {@code by} says
     * ({@code stack} when null, {@code op_name}, {@code source}): "N values live at step S, B bytes occupied".
     *
     * @param stepName how the user named the step, for the profile's comments
     * @throws IllegalArgumentException when the module has no such step
     */
    public static String pprof(HloModule m, int step, String stepName, String by, OutputStream out) throws IOException {
        ProfileStacks stacks = by == null ? ProfileStacks.STACK : ProfileStacks.parse(by);
        PprofExport.Summary s = PprofExport.write(m, step, stepName, stacks, out);
        return s.samples() + " values live at step " + step + ", " + s.bytes() + " bytes occupied";
    }

    /**
     * Every step of {@code m} as a Perfetto (Chrome JSON) trace: "S steps, N values on A allocations"
     * and what the trace leaves out.
     *
     * @throws IllegalArgumentException when the module has no live ranges (nothing to put on a timeline)
     */
    public static String perfetto(HloModule m, OutputStream out) throws IOException {
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        TraceExport.Summary t = TraceExport.write(m, w);
        return m.steps() + " steps, " + t.slices() + " values on " + t.allocations() + " allocations" + TraceExport.leftOut(m, t);
    }
}
