package bufq.shell.session;

import java.util.List;

/**
 * A shell command. Adding one is one class and one line in {@code bufq.shell.command.Commands.standard()}; its
 * synopsis, description and examples are what {@code help} prints. The shell hands it the rest of
 * the line once; the {@link CommandPlan} it returns says what it reads and then runs.
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

    /** Lines a user can type as they are. */
    List<String> examples();

    /**
     * Parses {@code args} (the rest of the line after the name, stripped) into the invocation to run;
     * {@code ctx} answers what parsing needs (the engine's entities and catalog, the settings). A
     * plan whose arguments do not parse may throw here or report it when it runs.
     */
    CommandPlan plan(CommandContext ctx, String args) throws CommandException;

    /** Fails unless {@code args} has between {@code min} and {@code max} words. */
    default void arity(List<String> args, int min, int max) throws CommandException {
        if (args.size() < min || args.size() > max)
            throw new CommandException("usage: " + synopsis());
    }
}
