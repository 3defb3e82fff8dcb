package bufq.shell.api;

import bufq.shell.session.Engine;
import bufq.shell.session.Modules;
import bufq.shell.session.Printer;
import bufq.shell.session.Settings;

/**
 * What a command may use: the engine (queries, the catalog), the settings, the session's modules,
 * the output it prints to, and, for the commands that steer the session itself (quit, format,
 * output, history, run, js, help), {@link SessionControl}. Built once per session by {@link Shell};
 * commands never see the shell.
 */
public record CommandContext(Engine engine, Settings settings, Modules modules, Printer out, SessionControl session) {
}
