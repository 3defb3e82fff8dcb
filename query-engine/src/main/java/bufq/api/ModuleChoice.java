package bufq.api;

import bufq.model.HloModule;
import bufq.model.ProgramSizes;

import java.util.List;

/**
 * Which of several loaded modules a command on one module runs on when the user picked none: the
 * module the loaded out-of-memory messages name, else the one that needs the most bytes
 * ({@code needs_bytes}, as {@code modules} prints it; the first of equals).
 *
 * @param handle the module's handle
 * @param why    the evidence, as a clause: {@code named by message 1 of run.log}, {@code the largest needs_bytes}
 */
public record ModuleChoice(String handle, String why) {

    /** The choice among {@code modules} (not empty); {@code oom} null when no message is loaded. */
    public static ModuleChoice of(List<HloModule> modules, OomLog oom) {
        if (oom != null) {
            OomLog.Named named = oom.named(modules);
            if (named != null) return new ModuleChoice(named.handle(), "named by message " + named.message() + " of " + oom.source());
        }
        HloModule best = null;
        long most = -1;
        for (HloModule m : modules) {
            long needs = ProgramSizes.of(m).needsBytes();
            if (needs > most) {
                most = needs;
                best = m;
            }
        }
        if (best == null) throw new IllegalArgumentException("no module to choose from");
        return new ModuleChoice(best.handle(), "the largest needs_bytes");
    }
}
