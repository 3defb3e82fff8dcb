package bufq.shell.command;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.OutputSink;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

final class OutputCommand implements Command {
    @Override public String name() { return "output"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("output").positional("FILE", ArgKind.FILE).optional().flag("--force");

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() { return "Sends results to FILE (written atomically), or back to the screen."; }

    @Override public String description() {
        return "Sends results to FILE until the next 'output' or the end of the session; with no FILE, back to the\n"
                + "screen. The file appears whole when the output is switched or closed (written to a temporary\n"
                + "file beside it, then renamed; one left by a killed run is removed the next time). An existing file\n"
                + "is only replaced with --force.";
    }

    @Override public List<String> examples() { return List.of("output peak.md", "output report.csv --force", "output"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException, IOException {
        List<String> rest = args.texts("FILE");
        boolean force = args.has("--force");
        if (rest.isEmpty() && force) throw args.error("--force", "--force replaces a FILE: give one; usage: " + synopsis(), List.of());
        if (rest.isEmpty()) {
            Path was = ctx.out().sink().target();
            ctx.out().switchSink(OutputSink.console(ctx.out().out()));
            if (was != null) ctx.out().info("wrote " + was);
            return Status.OK;
        }
        if (rest.get(0).isEmpty()) throw new CommandException("output: a file name is expected, not an empty one");
        Path target = Path.of(rest.get(0));
        if (target.toAbsolutePath().normalize().equals(ctx.out().sink().target()))
            throw new CommandException("results already go to " + target);
        OutputSink next;
        try {
            next = OutputSink.file(target, force);
        } catch (FileAlreadyExistsException e) {
            throw new CommandException(target + " exists; use 'output " + rest.get(0) + " --force' to replace it");
        } catch (IOException e) {
            throw new CommandException("cannot write " + target + ": " + e.getMessage());
        }
        Path was = ctx.out().sink().target();
        try {
            ctx.out().switchSink(next);
        } catch (FileAlreadyExistsException e) {
            throw new CommandException(was + " appeared meanwhile; kept it and dropped this output");
        }
        if (was != null) ctx.out().info("wrote " + was);
        return Status.OK;
    }
}
