package bufq.shell.command;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.api.CommandContext;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.CommandException;
import bufq.shell.session.Status;

import java.util.List;

/** {@code clear}: clears the terminal, as the shell's own command of that name and Ctrl-L do. */
final class ClearCommand implements Command {
    /** Cursor home, erase the screen, erase the scrollback (what {@code clear} prints on xterm). */
    static final String CLEAR = "\033[H\033[2J\033[3J";

    @Override public String name() { return "clear"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("clear");

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "Clears the screen (Ctrl-L too)."; }
    @Override public String description() {
        return "Clears the terminal. Anywhere else (a pipe, a file, a script's output) it prints nothing.";
    }
    @Override public List<String> examples() { return List.of("clear"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException {
        if (ctx.out().onTerminal()) {
            ctx.out().out().print(CLEAR);
            ctx.out().out().flush();
        }
        return Status.OK;
    }
}
