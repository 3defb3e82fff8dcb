package bufq.shell.api;

import bufq.api.Extensions;
import bufq.shell.session.CommandException;
import bufq.shell.session.History;
import bufq.shell.session.Status;
import bufq.shell.statement.Paste;
import bufq.shell.statement.StatementReader;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** What the commands that steer the session use beyond modules, settings and output: the shell gives it. */
public interface SessionControl {
    /** Ends the session after the statement running. */
    void requestQuit();

    /** The statements entered so far. */
    History history();

    /** The commands, for {@code help}: what they are, not how to run them. */
    CommandDocs commands();

    /** Runs the statements of a {@code .bq} script; errors name {@code source}:line. */
    Status runScript(StatementReader reader, String source) throws IOException, CommandException;

    /** Statements of a {@code .bq} script, read from {@code r}. */
    StatementReader statements(BufferedReader r);

    /** Whether {@code file} is a script of the script engine's language (by its extension). */
    boolean isScriptFile(Path file);

    /** Where {@code oom -} reads pasted text. */
    Paste paste();

    /** The session's script engine, made on first use. */
    ScriptEngine scripts();

    /** {@code advise} rules scripts registered; empty, without starting anything, when none ran. */
    List<Extensions.AdviseRule> scriptRules();

    /** Checks scripts registered ({@code bufq.check}); empty, without starting anything, when none ran. */
    List<Extensions.Check> scriptChecks();
}
