package bufq.shell.command;

import bufq.format.Formatters;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;
import bufq.lang.NearNames;

import java.util.List;

final class FormatCommand implements Command {
    @Override public String name() { return "format"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("format").positionalChoice("NAME", Formatters.names(), List.of()).optional();

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String description() {
        return "Sets how results print: " + String.join(", ", Formatters.names())
                + ". Without NAME, shows the current one; 'help formats' says what each prints.";
    }

    @Override public List<String> examples() { return List.of("format markdown", "format csv"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException {
        if (!args.has("NAME")) {
            ctx.out().info("format is " + ctx.out().format().name());
            return Status.OK;
        }
        use(ctx, args.text("NAME").toLowerCase(java.util.Locale.ROOT));
        return Status.OK;
    }

    /** Makes {@code name} the output format ({@code format NAME}, and {@code set format NAME} as people type it). */
    static void use(CommandContext ctx, String name) throws CommandException {
        if (!Formatters.names().contains(name))
            throw new CommandException("unknown format '" + name + "'" + NearNames.hint(name, Formatters.names())
                    + " (expected one of " + String.join(", ", Formatters.names()) + ")");
        ctx.out().setFormat(Formatters.byName(name));
    }
}
