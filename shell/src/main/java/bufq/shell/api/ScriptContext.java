package bufq.shell.api;

import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.Env;
import bufq.shell.session.Modules;
import bufq.shell.session.Printer;
import bufq.shell.session.Settings;

/**
 * What the script engine may use of the session: the engine (queries, the catalog), the settings
 * (tiling models register there), the session's modules, the output, the user's environment (where
 * init.js is), and the run of a deferred init.js a script waits for. Built once per session by
 * {@link Shell}, as commands get their {@link CommandContext}; scripts never see the shell.
 */
public record ScriptContext(Engine engine, Settings settings, Modules modules, Printer printer, Env env,
                            PendingInit init) {
    /** Runs the user's init script if it is deferred and has not run; returns when it has. */
    @FunctionalInterface
    public interface PendingInit {
        /** @throws CommandException interrupted (Ctrl-C) while an idle prompt's run of it goes on */
        void run() throws CommandException;
    }
}
