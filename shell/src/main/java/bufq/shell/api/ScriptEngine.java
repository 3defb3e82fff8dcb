package bufq.shell.api;

import bufq.api.Extensions;
import bufq.shell.statement.UnfinishedCode;
import bufq.shell.session.CommandException;
import bufq.shell.session.Status;

import java.nio.file.Path;
import java.util.List;

/**
 * What a session needs from its scripting language ({@code js CODE}, {@code run FILE.js},
 * {@code -f FILE.js}, init.js); {@code bufq.shell.script} implements it with GraalVM JavaScript.
 * An implementation starts its language runtime on the first call that runs code, so sessions
 * that run none never load it.
 */
public interface ScriptEngine {
    /** The extension of the script files it runs, lowercase, without the dot ({@code js}). */
    String extension();

    /**
     * Evaluates {@code code} and prints its value unless there is none.
     *
     * @param sourceName how errors name the code, e.g. {@code js}
     */
    Status eval(String code, String sourceName) throws CommandException;

    /** Runs a script file, {@code file} as the user wrote it (errors name it so). */
    Status runFile(Path file) throws CommandException;

    /** Runs the user's init script if there is one; an error in it is printed and the session goes on. */
    void runInit();

    /** Whether {@code code} is visibly unfinished (an open bracket, string or comment). Starts nothing. */
    boolean incomplete(String code);

    /**
     * A fresh {@link UnfinishedCode}; the engine's own reads each character once. This default asks
     * {@link #incomplete} of the whole text each time. Starts nothing.
     */
    default UnfinishedCode unfinished() {
        StringBuilder all = new StringBuilder();
        return new UnfinishedCode() {
            @Override public void add(CharSequence code) { all.append(code); }
            @Override public boolean incomplete() { return ScriptEngine.this.incomplete(all.toString()); }
        };
    }

    /** Checks scripts registered, in registration order. */
    List<Extensions.Check> checks();

    /** {@code advise} rules scripts registered ({@code bufq.rule}), in registration order. */
    default List<Extensions.AdviseRule> rules() { return List.of(); }

    /** Stops the running script, if any (Ctrl-C). Safe to call from another thread. */
    void cancel();

    /**
     * Starts the language runtime on a background thread and returns at once, so the first script
     * finds it ready; does nothing when it is started or starting. Only the interactive shell calls
     * this (at an idle prompt): batch runs that run no script never load the runtime.
     */
    default void prepare() {}

    /** Ends the session's scripting. */
    void close();
}
