package bufq.shell.session;

import bufq.eval.ModuleRow;
import bufq.lang.SqlHabits;
import bufq.model.DumpPart;
import bufq.model.HloModule;
import bufq.table.Output;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;

/**
 * Runs one statement, a query or a command, with the session's context: the query through the
 * engine under the time limit, the command through the plan it makes of its arguments. Says, before
 * running, what a statement reads and whether it may depend on the init script. Errors are thrown;
 * {@link Shell#execute} prints them.
 */
final class StatementRunner {
    private final Engine engine;
    private final CommandTable commands;
    private final CommandContext ctx;

    StatementRunner(Engine engine, CommandTable commands, CommandContext ctx) {
        this.engine = engine;
        this.commands = commands;
        this.ctx = ctx;
    }

    /** A statement told apart and parsed: a query's text, or a command's plan. */
    sealed interface Parsed {
        record Query(String text) implements Parsed {}
        record Invocation(CommandPlan plan) implements Parsed {}
    }

    /** Whether {@code text} runs as a query (see {@link StatementKind}). */
    boolean isQuery(String text) {
        return StatementKind.isQuery(text, engine.entities(), commands);
    }

    /** Tells {@code text} apart and parses a command's arguments into its plan. */
    Parsed parse(String text) throws CommandException {
        if (isQuery(text)) return new Parsed.Query(text);
        String[] head = text.split("\\s+", 2);
        String name = head[0].endsWith(";") && head.length == 1 ? head[0].substring(0, head[0].length() - 1) : head[0];
        Command c = commands.byName(name);
        if (c == null) {
            List<String> known = new ArrayList<>(commands.names());
            known.addAll(engine.entities());
            String sql = SqlHabits.forStatement(text.endsWith(";") ? text.substring(0, text.length() - 1).stripTrailing() : text);
            throw new CommandException("unknown command '" + name + "'" + (sql.isEmpty() ? Suggest.hint(name, known)
                    + " (type 'help' for the list)" : sql));
        }
        String args = head.length < 2 ? "" : head[1];
        try {
            return new Parsed.Invocation(c.plan(ctx, args));
        } catch (Words.Unterminated e) {
            throw e.shifted(text.length() - args.length());   // columns count from the statement's start
        }
    }

    /** Runs what {@link #parse} made. */
    Status run(Parsed p) throws CommandException, Engine.Failure, IOException {
        if (p instanceof Parsed.Query q) return runQuery(q.text());
        return runCommand(((Parsed.Invocation) p).plan());
    }

    private Status runQuery(String text) throws CommandException, Engine.Failure, IOException {
        HloModule m = ctx.modules().require();
        ctx.modules().readParts(m, engine.needs(text));
        List<Output> result;
        try (QueryDeadline limit = QueryDeadline.start(ctx.settings().timeout(), ctx.settings().timeoutText())) {
            try {
                List<ModuleRow> rows = null;
                if (StatementKind.firstWord(text).toLowerCase(Locale.ROOT).equals("modules")) {
                    List<ModuleRow> all = new ArrayList<>();
                    ctx.modules().forEachModule(x -> all.add(ModuleRow.of(x, x.handle().equals(m.handle()))));
                    rows = all;
                }
                result = engine.query(text, m, ctx.settings().tiling(), rows);
            } catch (Engine.Failure f) {
                if (limit.expired()) throw new CommandException(limit.message());
                if (Thread.currentThread().isInterrupted()) throw new CommandException(Shell.CANCELLED);
                throw f;
            }
        }
        // Ctrl-C in the REPL interrupts this thread: a query that finished meanwhile is not shown.
        if (Thread.currentThread().isInterrupted()) throw new CommandException(Shell.CANCELLED);
        ctx.out().print(result);
        return Status.OK;
    }

    private Status runCommand(CommandPlan plan) throws CommandException, Engine.Failure, IOException {
        HloModule m = ctx.modules().current();
        if (m != null && plan.needsCurrentModule()) ctx.modules().readParts(m, plan.needs());
        if (!plan.evaluatesConditions()) return plan.run(ctx);
        // The user's conditions run under the query time limit, as a query does.
        try (QueryDeadline limit = QueryDeadline.start(ctx.settings().timeout(), ctx.settings().timeoutText())) {
            try {
                return plan.run(ctx);
            } catch (CommandException | Engine.Failure | CancellationException e) {
                if (limit.expired()) throw new CommandException(limit.message());
                if (Thread.currentThread().isInterrupted()) throw new CommandException(CommandException.CANCELLED);
                throw e;
            }
        }
    }

    /**
     * The dump parts {@code statement} reads beyond what every loaded module holds: a query's, as its
     * compilation says, or a command's plan's; none for a statement that does not parse.
     */
    Set<DumpPart> needs(String statement) {
        String text = statement.strip();
        if (text.isEmpty() || text.startsWith("#")) return Set.of();
        try {
            Parsed p = parse(text);
            if (p instanceof Parsed.Query q) return engine.needs(q.text());
            return ((Parsed.Invocation) p).plan().needs();
        } catch (CommandException e) {
            return Set.of();   // reported when it runs
        }
    }

    /**
     * Whether {@code p} may depend on what the user's init script registers or runs, so a pending one
     * runs first (see {@link InitScript}): a query that parses but does not check against the fields
     * known now (init.js may define the fields it names), or a command whose plan says so.
     */
    boolean usesScripts(Parsed p) {
        if (p instanceof Parsed.Query q) return engine.unresolved(q.text());
        return ((Parsed.Invocation) p).plan().usesScripts();
    }
}
