package bufq.shell.command;

import bufq.api.Diff;
import bufq.model.LoadOptions;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code diff A B}: compares two compilations. Each side is a loaded module (handle, number or
 * unique prefix) or a path; paths are read for the comparison only and not added to the session.
 * Two directories pair their modules by program name.
 */
final class DiffCommand implements Command {
    @Override public String name() { return "diff"; }
    /** The Used values section: values are matched by instruction text. */

    private static final ArgGrammar GRAMMAR = ArgGrammar.of("diff")
            .positional("A", ArgKind.MODULE).positional("B", ArgKind.MODULE)
            .flag("--at-peak").count("limit", -1).value("--fail-over", ArgKind.TEXT).as("PCT");

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "Compares two compilations: peak, totals, op_name changes, one-sided values."; }

    @Override public String description() {
        return "Compares two compilations of a program. A and B are loaded modules (see 'modules') or dump paths\n"
                + "(files or directories; directories pair their modules by program name). Prints a summary (peak\n"
                + "per colour, total allocation, parameters, outputs, temps: before, after, change), the biggest\n"
                + "changes in bytes live at peak grouped by op_name and by source line, then values present on one\n"
                + "side only, largest first. Values are matched on what survives renaming: op_name, source line,\n"
                + "shape and role. --at-peak limits every part to values live at each side's peak; 'limit N' caps\n"
                + "the rows of each part (default 20, -1 for all). --fail-over PCT adds each pair's needs_bytes (see\n"
                + "'modules') and fails (exit 1 under -c) when a program needs more than PCT percent more after.";
    }

    @Override public List<String> examples() {
        return List.of("diff 1 2", "diff jit_step jit_step#2 --at-peak",
                "diff before/ after/", "diff a-buffer-assignment.txt b-buffer-assignment.txt limit 50",
                "diff before/ after/ --fail-over 10");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        // Its sides, not the current module: side() reads their parts.
        return CommandPlan.parsed(GRAMMAR, args, true, false, false, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, Engine.Failure, IOException {
        double failOver = failOver(a);
        List<HloModule> before = side(ctx, a, "A"), after = side(ctx, a, "B");
        Diff.Answer d = Diff.compare(before, after, a.has("--at-peak"), a.count("limit"), failOver);
        if (d.warning() != null) ctx.out().info(d.warning());
        ctx.out().print(d.tables());
        if (d.guard() != null) ctx.out().print(d.guard());
        for (String f : d.failures()) ctx.out().error(f);
        return d.failures().isEmpty() ? Status.OK : Status.ERROR;
    }

    private static double failOver(ParsedArgs a) throws CommandException {
        String text = a.text("--fail-over");
        if (text == null) return Double.NaN;
        String t = text.endsWith("%") ? text.substring(0, text.length() - 1) : text;
        try {
            double d = Double.parseDouble(t);
            if (d >= 0 && !Double.isInfinite(d)) return d;
        } catch (NumberFormatException e) {
            // below
        }
        throw a.error("--fail-over", "--fail-over takes a percentage >= 0 such as 10 or 2.5%, not '" + text + "'", List.of());
    }

    /** A loaded module by exact handle, else a path on disk, else a handle number or prefix. */
    private static List<HloModule> side(CommandContext ctx, ParsedArgs a, String which) throws CommandException, Engine.Failure {
        String word = a.text(which);
        for (ModuleSet.Entry e : ctx.modules().set().entries()) if (e.handle().equals(word)) return read(ctx, ctx.modules().module(e));
        Path p = Path.of(word);
        if (Files.exists(p)) {
            List<HloModule> out = new ArrayList<>();
            for (Engine.FoundModule s : ctx.modules().discover(List.of(p))) out.add(s.reading(LoadOptions.WHOLE).load());
            return out;
        }
        ModuleSet.Entry found;
        try {
            found = ctx.modules().set().find(word);
        } catch (CommandException e) {
            List<String> handles = new ArrayList<>();
            for (ModuleSet.Entry e2 : ctx.modules().set().entries()) handles.add(e2.handle());
            throw a.error(which, e.getMessage(), handles);
        }
        return read(ctx, ctx.modules().module(found));
    }

    /** A loaded side with the parts the comparison reads, read up front as a load is (progress, Ctrl-C). */
    private static List<HloModule> read(CommandContext ctx, HloModule m) throws CommandException {
        ctx.modules().readUsedValues(m);
        return List.of(m);
    }
}
