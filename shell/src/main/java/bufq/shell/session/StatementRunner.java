package bufq.shell.session;

import bufq.eval.ModuleRow;
import bufq.lang.SqlHabits;
import bufq.model.HloModule;
import bufq.table.Output;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * Runs one statement, a query or a command, with the session's context: the query through the
 * engine under the time limit, the command through the plan it makes of its arguments. Says, before
 * running, what a statement reads and whether it may depend on the init script, from the one
 * compilation it keeps ({@link #compile}). Errors are thrown; {@link Shell#execute} prints them.
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

    /**
     * Compiles {@code text} once (see {@link Shell.Statement}): a query through the engine, a command
     * into the plan it makes of its arguments; a line that names no command is refused, its error
     * kept for when it runs. Never throws.
     */
    Shell.Statement compile(String text) {
        return switch (StatementKind.of(text, engine.entities(), commands)) {
            case QUERY -> new Shell.Statement.Query(text, engine.compile(text));
            case COMMAND -> {
                try {
                    yield new Shell.Statement.Invocation(text, plan(text));
                } catch (CommandException e) {
                    yield new Shell.Statement.Refused(text, e);
                }
            }
        };
    }

    /** The plan of a command statement. */
    private CommandPlan plan(String text) throws CommandException {
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
            return c.plan(ctx, args);
        } catch (Words.Unterminated e) {
            throw e.shifted(text.length() - args.length());   // columns count from the statement's start
        }
    }

    /** Runs a statement {@link #compile} made. */
    Status run(Shell.Statement s) throws CommandException, Engine.Failure, IOException {
        if (s instanceof Shell.Statement.Query q) return runQuery(q.query().current());
        if (s instanceof Shell.Statement.Refused r) throw r.error();
        return runCommand(((Shell.Statement.Invocation) s).plan());
    }

    private Status runQuery(Engine.Compiled query) throws CommandException, Engine.Failure, IOException {
        HloModule m = ctx.modules().require();
        ctx.modules().readParts(m, query.needs());
        List<Output> result;
        try (QueryDeadline limit = QueryDeadline.start(ctx.settings().timeout(), ctx.settings().timeoutText())) {
            try {
                List<ModuleRow> rows = null;
                if (query.entity().equals("modules")) {
                    List<ModuleRow> all = new ArrayList<>();
                    ctx.modules().forEachModule(x -> all.add(ModuleRow.of(x, x.handle().equals(m.handle()))));
                    rows = all;
                }
                result = query.run(m, ctx.settings().tiling(), rows);
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
}
