package bufq.shell.command;

import bufq.shell.api.ArgumentError;
import java.util.HashSet;
import bufq.table.TextBlock;
import bufq.analysis.sharding.Shardings;
import bufq.eval.EvalContext;
import bufq.eval.ModuleRow;
import bufq.eval.Selection;
import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.Capacities;
import bufq.analysis.fit.Failure;
import bufq.analysis.fit.FitReport;
import bufq.analysis.fit.Keep;
import bufq.analysis.fit.Program;
import bufq.lang.QueryException;
import bufq.lang.Diagnostic;
import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.session.ModuleSet;
import bufq.shell.session.Modules;
import bufq.shell.session.Setting;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;
import bufq.units.Units;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * {@code fit}: the loaded programs (or some) against the capacity, alone and held together as they
 * run in one process; fails, so {@code --bail -c fit} exits 1, when one does not fit. A thin adapter
 * over {@link FitReport}.
 */
final class FitCommand implements Command {
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("fit")
            .oneOf(false, g -> g.positional("PROGRAM", ArgKind.TEXT).as("PROGRAM, ...").runOn().optional()
                    .value("where", ArgKind.CONDITION).as("COND"))
            .value("keep", ArgKind.TEXT).as("SPEC, ...").runOn().repeated()
            .value("drop", ArgKind.TEXT).as("SPEC, ...").runOn().repeated();

    @Override public String name() { return "fit"; }

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "Will the programs fit the capacity, alone and held together? Fails when not."; }

    @Override public String description() {
        return "Checks the loaded programs (or those named, in that order, or 'where COND' on modules) against the\n"
                + "capacity (set capacity, or set device; less set reserved). Prints each program alone (needs_bytes\n"
                + "as in 'modules', headroom, share of what is offered), then the programs held together in running\n"
                + "order: while a program runs, the device holds what it needs plus every array kept by the programs\n"
                + "before it (by default all their parameters and outputs), then the arrays held and what to change:\n"
                + "the fewest kept arrays to drop or donate, or the temp to cut, each with a statement to run.\n"
                + "keep/drop SPEC: all, none, parameters, outputs, PROGRAM, PROGRAM:parameters, PROGRAM:outputs or\n"
                + "PROGRAM:N (allocation N). Fails (exit 1 under -c) with one line naming the program and the\n"
                + "overflow when one does not fit. A program's arguments are counted once, in its needs: the arrays\n"
                + "held before it that it takes (matched by shape and size) are never proposed to drop. With an\n"
                + "out-of-memory message loaded (oom, --oom) the program it names never fits the capacity it failed\n"
                + "on: what else must have been held is assumed as reserved and said; a compile XLA:TPU refused for\n"
                + "its HBM total is believed so too, and a failure in another memory (VMEM) is stated beside the HBM\n"
                + "check and fails fit. With no capacity set and a message that states none (XLA:CPU's), fit checks\n"
                + "against the bound the message's figures imply (at most what was free) and says what is unknown.\n"
                + "set capacity host is this machine's memory, unlimited no bound.";
    }

    @Override public List<String> examples() {
        return List.of("fit", "fit jit_a, jit_b", "fit where program = 'jit_train_step'", "fit keep outputs",
                "fit drop jit__lambda:0");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        // the rest of the line as typed. Every program's module is read as fit needs it: not the current module's parts.
        CommandPlan text = CommandPlan.parsed(GRAMMAR, args, false, false, false, this::run);
        return new CommandPlan() {
            @Override public boolean needsCurrentModule() { return false; }
            /** Its selection is a modules query, and a long set's changes take time: under the query time limit. */
            @Override public boolean evaluatesConditions() { return true; }
            @Override public Status run(CommandContext c) throws CommandException, Engine.Failure, IOException { return text.run(c); }
        };
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, Engine.Failure, IOException {
        List<HloModule> modules = modules(ctx);
        List<String> spaces = otherSpaces(ctx, modules);
        Capacity capacity = capacityOrNull(ctx);
        if (capacity == null && !spaces.isEmpty()) {
            // the failure is in another memory: say it, and that the device memory needs a capacity to check
            for (String s : spaces) ctx.out().info(s);
            ctx.out().info("the device memory (HBM) is not checked: set capacity SIZE or set device NAME");
            ctx.out().error("fit: " + spaces.get(0));
            return Status.ERROR;
        }
        // the selection, then keep ... and drop ... in any order
        String selection = a.has("where") ? "where " + a.text("where") : a.has("PROGRAM") ? a.text("PROGRAM") : "";
        List<String> keep = new ArrayList<>(), drop = new ArrayList<>();
        for (String body : a.texts("keep")) keep.addAll(list(body));
        for (String body : a.texts("drop")) drop.addAll(list(body));
        List<Program> programs = programs(ctx, selection, a);
        if (programs.isEmpty()) throw new CommandException("no programs to fit" + (selection.isEmpty() ? "; load a dump first" : " match '" + selection + "'"));
        FitReport r;
        try {
            r = FitReport.of(programs, capacity, new Keep(keep, drop), selection.isEmpty() ? "" : " " + selection,
                    failures(ctx, modules));
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
        if (Thread.currentThread().isInterrupted()) throw new CancellationException("fit cancelled");
        ctx.out().print(r.outputs());
        printPerDevice(ctx, programs);
        for (String s : spaces) ctx.out().info(s);
        String failure = r.failure();
        if (failure == null && !spaces.isEmpty()) failure = spaces.get(0);
        if (failure == null) return Status.OK;
        ctx.out().error("fit: " + failure);
        return Status.ERROR;
    }

    private static List<String> list(String body) {
        List<String> out = new ArrayList<>();
        for (String s : body.split("[,\\s]+")) if (!s.isBlank()) out.add(s);
        return out;
    }

    /** What the session says about capacity, as the engine's policy takes it. */
    static Capacities.Said said(CommandContext ctx) {
        Setting.Reserved res = ctx.settings().reserved();
        return new Capacities.Said(ctx.settings().capacity(), ctx.settings().device(), res.isSet() ? res.bytes() : -1, res.text());
    }

    /** The capacity the session says ({@link Capacities#resolve}), null when none. */
    static Capacity capacityOrNull(CommandContext ctx) throws CommandException {
        try {
            return Capacities.resolve(said(ctx));
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
    }

    /** As {@link #capacityOrNull}, refusing none: forecast's fit has no message to bound it. */
    static Capacity requireCapacity(CommandContext ctx) throws CommandException {
        Capacity c = capacityOrNull(ctx);
        if (c == null) throw new CommandException("fit needs a capacity: set capacity SIZE (e.g. 16GiB, host, unlimited), set device NAME"
                + " ('help device' lists them), or --capacity/--device on the command line");
        return c;
    }

    /** The failures the loaded out-of-memory messages name, joined to {@code modules}. */
    static List<Failure> failures(CommandContext ctx, List<HloModule> modules) {
        Modules.LoadedOom o = ctx.modules().oom();
        return o == null ? List.of() : Capacities.failures(o.text(), o.source(), modules);
    }

    static List<HloModule> modules(CommandContext ctx) throws Engine.Failure, CommandException {
        List<HloModule> modules = new ArrayList<>();
        if (ctx.modules().oom() != null) ctx.modules().forEachModule(modules::add);
        return modules;
    }

    /** The loaded messages' failures in a memory other than the device's ({@link Capacities#otherSpaces}). */
    static List<String> otherSpaces(CommandContext ctx, List<HloModule> modules) {
        Modules.LoadedOom o = ctx.modules().oom();
        return o == null ? List.of() : Capacities.otherSpaces(o.text(), o.source(), modules);
    }

    /** The programs to fit, in running order: all loaded, the named ones, or those a modules query keeps. */
    /** For SPMD programs: that their figures are one device's, so the capacity compared is one device's too. */
    private static void printPerDevice(CommandContext ctx, List<Program> programs) throws IOException, Engine.Failure, CommandException {
        Set<String> handles = new HashSet<>();
        for (Program p : programs) handles.add(p.handle());
        List<String> lines = new ArrayList<>();
        ctx.modules().forEachModule(x -> {
            String n = handles.contains(x.handle()) ? Shardings.header(x).perDeviceNote() : null;
            if (n != null) lines.add(x.handle() + ": " + n + "; the capacity is one device's");
        });
        if (!lines.isEmpty()) ctx.out().print(List.of(new TextBlock(String.join("\n", lines))));
    }

    private static List<Program> programs(CommandContext ctx, String selection, ParsedArgs a) throws CommandException, Engine.Failure {
        List<Program> out = new ArrayList<>();
        if (selection.isEmpty()) {
            ctx.modules().forEachModule(x -> out.add(Program.of(x)));
            return out;
        }
        if (selection.regionMatches(true, 0, "where", 0, 5) && (selection.length() == 5 || Character.isWhitespace(selection.charAt(5)))) {
            Map<String, Program> byHandle = new LinkedHashMap<>();
            List<ModuleRow> rows = new ArrayList<>();
            HloModule current = ctx.modules().current();
            ctx.modules().forEachModule(x -> {
                byHandle.put(x.handle(), Program.of(x));
                rows.add(ModuleRow.of(x, current != null && x.handle().equals(current.handle())));
            });
            if (rows.isEmpty()) return out;
            HloModule any = current != null ? current : ctx.modules().module(ctx.modules().set().entries().get(0));
            String condition = selection.substring(5).stripLeading();
            Selection modules = ctx.engine().where("modules", condition, selection.length() - condition.length());
            try {
                for (Object row : modules.rows(new EvalContext(any, ctx.settings().tiling(), rows)))
                    out.add(byHandle.get(((ModuleRow) row).handle()));
            } catch (QueryException e) {
                // drawn under the statement: the condition's columns counted from where it starts there
                Diagnostic d = e.diagnostic();
                int shift = a.word("where").start() - (selection.length() - condition.length());
                throw new ArgumentError(new Diagnostic(d.start() + shift, d.end() + shift, d.message(), d.suggestions()));
            }
            return out;
        }
        for (String word : list(selection)) {
            ModuleSet.Entry e;
            try {
                e = ctx.modules().set().find(word);
            } catch (CommandException x) {
                List<String> handles = new ArrayList<>();
                for (ModuleSet.Entry h : ctx.modules().set().entries()) handles.add(h.handle());
                throw a.error("PROGRAM", word, x.getMessage(), handles);
            }
            out.add(Program.of(ctx.modules().module(e)));
        }
        return out;
    }
}
