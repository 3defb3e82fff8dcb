package bufq.shell.api;

import bufq.shell.session.CommandException;

/**
 * A shell command: its {@link CommandDoc} (what {@code help} prints) and how it runs. Adding one is
 * one class and one line in {@code bufq.shell.command.Commands.standard()}. The shell hands it the
 * rest of the line once; the {@link CommandPlan} it returns says what it reads and then runs.
 */
public interface Command extends CommandDoc {
    /**
     * Parses {@code args} (the rest of the line after the name, stripped) into the invocation to run;
     * {@code ctx} answers what parsing needs (the engine's entities and catalog, the settings). A
     * plan whose arguments do not parse may throw here or report it when it runs.
     */
    CommandPlan plan(CommandContext ctx, String args) throws CommandException;
}
