package bufq.shell.command;

import bufq.shell.api.ArgumentError;
import bufq.api.CapacitySaid;
import bufq.api.Fitting;
import bufq.eval.EvalContext;
import bufq.eval.ModuleRow;
import bufq.eval.Selection;
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
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * {@code fit}: the loaded programs (or some) against the capacity, alone and held together as they
 * run in one process; fails, so {@code --bail -c fit} exits 1, when one does not fit. A thin adapter
 * over {@link Fitting}.
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
        Fitting.Plan plan;
        List<HloModule> joined;
        try {
            joined = ctx.modules().joinedToOom();
            plan = Fitting.plan(ctx.settings().capacitySaid(), ctx.modules().oom(), joined);
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
        Fitting.Answer refusal = plan.refusal();
        if (refusal != null) return print(ctx, refusal);
        // the selection, then keep ... and drop ... in any order
        String selection = a.has("where") ? "where " + a.text("where") : a.has("PROGRAM") ? a.text("PROGRAM") : "";
        List<String> keep = new ArrayList<>(), drop = new ArrayList<>();
        for (String body : a.texts("keep")) keep.addAll(list(body));
        for (String body : a.texts("drop")) drop.addAll(list(body));
        List<HloModule> programs = programs(ctx, selection, a);
        if (programs.isEmpty()) throw new CommandException("no programs to fit" + (selection.isEmpty() ? "; load a dump first" : " match '" + selection + "'"));
        List<HloModule> loaded = joined;   // every module already, when messages are loaded
        if (loaded.isEmpty()) {
            loaded = new ArrayList<>();
            ctx.modules().forEachModule(loaded::add);
        }
        Fitting.Answer r;
        try {
            r = plan.run(programs, loaded, selection, keep, drop);
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
        if (Thread.currentThread().isInterrupted()) throw new CancellationException("fit cancelled");
        return print(ctx, r);
    }

    private static Status print(CommandContext ctx, Fitting.Answer r) throws CommandException, IOException {
        if (!r.outputs().isEmpty()) ctx.out().print(r.outputs());
        if (r.perDevice() != null) ctx.out().print(r.perDevice());
        for (String s : r.notes()) ctx.out().info(s);
        if (r.failure() == null) return Status.OK;
        ctx.out().error("fit: " + r.failure());
        return Status.ERROR;
    }

    private static List<String> list(String body) {
        List<String> out = new ArrayList<>();
        for (String s : body.split("[,\\s]+")) if (!s.isBlank()) out.add(s);
        return out;
    }

    /** Whether {@code said} names a capacity; a reservation not below it is a one-line error. */
    static boolean checkCapacity(CapacitySaid said) throws CommandException {
        try {
            return said.given();
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
    }

    /** Refuses a fit without a capacity where no message bounds it (forecast's fit). */
    static void requireCapacity(CapacitySaid said) throws CommandException {
        if (!checkCapacity(said)) throw new CommandException("fit needs a capacity: set capacity SIZE (e.g. 16GiB, host, unlimited), set device NAME"
                + " ('help device' lists them), or --capacity/--device on the command line");
    }

    /** The programs to fit, in running order: all loaded, the named ones, or those a modules query keeps. */
    private static List<HloModule> programs(CommandContext ctx, String selection, ParsedArgs a) throws CommandException, Engine.Failure {
        List<HloModule> out = new ArrayList<>();
        if (selection.isEmpty()) {
            ctx.modules().forEachModule(out::add);
            return out;
        }
        if (selection.regionMatches(true, 0, "where", 0, 5) && (selection.length() == 5 || Character.isWhitespace(selection.charAt(5)))) {
            Map<String, HloModule> byHandle = new LinkedHashMap<>();
            List<ModuleRow> rows = new ArrayList<>();
            HloModule current = ctx.modules().current();
            ctx.modules().forEachModule(x -> {
                byHandle.put(x.handle(), x);
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
            out.add(ctx.modules().module(e));
        }
        return out;
    }
}
