package bufq.shell.session;

import bufq.model.DumpPart;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * A shell command. Adding one is one class and one line in {@code bufq.shell.command.Commands.standard()}; its
 * synopsis, description and examples are what {@code help} prints.
 */
public interface Command {
    /** The word that invokes it. */
    String name();

    /** Other words that invoke it. */
    default List<String> aliases() { return List.of(); }

    /** Usage in one line, e.g. {@code set NAME VALUE}. */
    String synopsis();

    /** What it does, in a sentence or a short paragraph. */
    String description();

    /** One line for the command list: the description's first sentence unless overridden. */
    default String brief() {
        String d = description().replace('\n', ' ');
        int dot = d.indexOf(". ");
        return dot > 0 ? d.substring(0, dot + 1) : d;
    }

    /**
     * True when the command takes its argument as raw text (one element, the rest of the line after
     * the name, quotes and all) instead of words; {@code js} does.
     */
    default boolean rawArgs() { return false; }

    /**
     * The dump parts the command reads beyond what every loaded module holds: the shell reads them
     * before running it (with a load's progress and Ctrl-C), and a batch run with its load.
     */
    default Set<DumpPart> needs() { return Set.of(); }

    /**
     * Whether {@link #needs()} are parts of the current module, which the shell reads before running
     * the command; false for a command on other modules ({@code diff}), which reads its own with
     * {@link Shell#readParts}. A batch run reads them with every module it loads either way.
     */
    default boolean needsCurrentModule() { return true; }

    /**
     * {@link #needs()} of one invocation, for a command whose needs depend on its arguments ({@code
     * whatif}: its conditions and edits); {@code args} is the rest of the line. By default {@link #needs()}.
     */
    default Set<DumpPart> needs(Shell shell, String args) { return needs(); }

    /**
     * Whether this invocation ({@code args}: the rest of the line) may depend on what the user's init
     * script registers (fields, tiling models, checks, advise rules) or runs JavaScript: the shell runs
     * a pending init script before it. False by default.
     */
    default boolean usesScripts(Shell shell, String args) { return false; }

    /**
     * Whether the command evaluates the user's conditions or queries ({@code whatif}, {@code why values
     * where ...}): it then runs under the query time limit ({@code set timeout}). False by default.
     */
    default boolean evaluatesConditions() { return false; }

    /** Lines a user can type as they are. */
    List<String> examples();

    /**
     * Runs with the words after the command name. Results go through {@link Shell#print}, messages
     * through {@link Shell#info}. Throws for user errors; the shell prints them.
     */
    Status run(Shell shell, List<String> args) throws CommandException, Engine.Failure, IOException;

    /** Fails unless {@code args} has between {@code min} and {@code max} words. */
    default void arity(List<String> args, int min, int max) throws CommandException {
        if (args.size() < min || args.size() > max)
            throw new CommandException("usage: " + synopsis());
    }
}
