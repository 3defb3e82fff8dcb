package bufq.shell.command;

import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.session.ModuleSet;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

final class LoadCommand implements Command {
    @Override public String name() { return "load"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("load").positional("PATH", ArgKind.FILE).repeated();

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() { return "Reads dumps (files, sibling sets, directories, .gz) and makes the first current."; }

    @Override public String description() {
        return "Reads dumps and makes the first new module current. PATH is a *-buffer-assignment.txt file (its\n"
                + "-buffer-assignment-values.txt, -live-range.txt and -memory-usage-report.txt siblings are joined),\n"
                + "any one of those siblings, an .hlo.pb (its -memory-usage-report.pb sibling is joined), a bare\n"
                + "buffer-assignment .pb, a profile's .xplane.pb, a dump directory (every module in it) or a .gz of a file.";
    }

    @Override public List<String> examples() {
        return List.of("load examples/jax-mlp/", "load /tmp/dump/module_0042.jit_step.cpu_after_optimizations-buffer-assignment.txt");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs parsed) throws CommandException, Engine.Failure {
        List<String> args = parsed.texts("PATH");
        List<Path> paths = new ArrayList<>();
        for (String a : args) paths.add(Path.of(a));
        List<ModuleSet.Entry> added;
        try {
            added = ctx.modules().load(paths);
        } catch (Engine.Failure e) {
            throw new CommandException(e.getMessage());  // one line, "error:" first, as every command's errors
        }
        for (ModuleSet.Entry e : added) {
            HloModule m = e.loaded();
            if (m == null) continue;
            ctx.out().info("loaded " + m.handle() + " (" + m.info().backend() + ", " + m.info().files().size() + " file"
                    + (m.info().files().size() == 1 ? "" : "s") + ", " + m.values().size() + " values)");
        }
        long later = added.stream().filter(e -> e.loaded() == null).count();
        if (later > 0) ctx.out().info("found " + added.size() + " modules; " + later + " are read when first used");
        return Status.OK;
    }
}
