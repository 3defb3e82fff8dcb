package bufq.shell.command;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.statement.StatementReader;
import bufq.shell.session.Status;
import bufq.shell.session.UserPaths;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

final class RunCommand implements Command {
    @Override public String name() { return "run"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("run").positional("FILE", ArgKind.FILE);

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() { return "Runs a .bq script of queries and commands, or a .js script."; }

    @Override public String description() {
        return "Runs a script: a .bq file holds queries and commands, one per line; '#' starts a comment line; a\n"
                + "line ending in '\\' or an unfinished query (open parenthesis or string, trailing 'and', 'where',\n"
                + "',', '=' ...) continues on the next. Errors name FILE:LINE; with --bail the script stops at the\n"
                + "first. A FILE ending in .js runs as JavaScript (see scripts/README.md).";
    }

    @Override public List<String> examples() { return List.of("run examples/peak-report.bq", "run scripts/fields/waste.js"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException {
        List<String> args = List.of(a.text("FILE"));
        Path file = Path.of(args.get(0));
        if (ctx.session().isScriptFile(file)) return ctx.session().scripts().runFile(file);
        Status st;
        try {
            UserPaths.requireRegularFile(file);
        } catch (IOException e) {
            throw new CommandException("cannot read " + file + ": " + e.getMessage());
        }
        try (BufferedReader r = StatementReader.utf8(Files.newInputStream(file))) {
            st = ctx.session().runScript(ctx.session().statements(r), args.get(0));
        } catch (NoSuchFileException e) {
            throw new CommandException("cannot read " + file + ": no such file");
        } catch (StatementReader.NotTextException e) {
            throw new CommandException(file + ": " + e.getMessage() + "; stopped");
        } catch (IOException e) {
            throw new CommandException("cannot read " + file + ": " + UserPaths.message(e));
        }
        return st;
    }
}
