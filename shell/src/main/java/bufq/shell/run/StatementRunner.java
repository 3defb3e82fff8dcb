package bufq.shell.run;

import bufq.shell.api.ArgumentError;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.CommandContext;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandTable;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.Status;
import bufq.lang.NearNames;
import bufq.shell.statement.QueryDeadline;
import bufq.shell.statement.StatementKind;
import bufq.shell.statement.StatementReader;
import bufq.shell.statement.Words;
import bufq.eval.ModuleRow;
import bufq.lang.Parser;
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
public final class StatementRunner {
    /** What an interrupted query or module scan reports (the REPL interrupts on Ctrl-C). */
    static final String CANCELLED = "query cancelled (Ctrl-C)";
    /** What a statement past {@link Parser#MAX_LENGTH} gets ({@link #tooLong}). */
    static final String TOO_LONG = "statement too long (more than " + Parser.MAX_LENGTH + " characters); split it, or list values with 'in (...)'";

    private final Engine engine;
    private final CommandTable commands;
    private final CommandContext ctx;

    StatementRunner(Engine engine, CommandTable commands, CommandContext ctx) {
        this.engine = engine;
        this.commands = commands;
        this.ctx = ctx;
    }

    /**
     * A statement compiled once ({@link #compile}), then kept: asked what it reads (a batch run reads
     * that with its load) and whether it waits for init.js, then run, all from that one compilation.
     * Its kind is {@link StatementKind}'s answer.
     */
    public sealed interface Statement {
        /** The statement as it runs (stripped). */
        String text();

        StatementKind kind();

        /**
         * Whether it reads the Used values section: a query's compilation says, or a command's plan;
         * false for a statement refused (its error comes when it runs).
         */
        boolean readsUsedValues();

        /**
         * Whether it may depend on what the user's init script registers or runs, so a pending one
         * runs first (see {@link InitScript}): a query that parses but does not check against the
         * fields known now (init.js may define the fields it names), or a command whose plan says so.
         */
        boolean usesScripts();

        /** A query, compiled by the engine. */
        record Query(String text, Engine.Compiled query) implements Statement {
            @Override public StatementKind kind() { return StatementKind.QUERY; }
            @Override public boolean readsUsedValues() { return query.readsUsedValues(); }
            @Override public boolean usesScripts() { return !query.unresolved().isEmpty(); }
        }

        /** A command, its arguments parsed into its plan. */
        record Invocation(String text, CommandPlan plan) implements Statement {
            @Override public StatementKind kind() { return StatementKind.COMMAND; }
            @Override public boolean readsUsedValues() { return plan.readsUsedValues(); }
            @Override public boolean usesScripts() { return plan.usesScripts(); }
        }

        /** A line that names no command, or whose arguments do not parse: running it throws {@code error}. */
        record Refused(String text, CommandException error) implements Statement {
            @Override public StatementKind kind() { return StatementKind.COMMAND; }
            @Override public boolean readsUsedValues() { return false; }
            @Override public boolean usesScripts() { return false; }
        }
    }

    /**
     * Whether stripped {@code text} is refused before any lexing ({@link #TOO_LONG}): every step
     * (init check, parts, parse, plan) would read it whole. JavaScript has no such bound.
     */
    static boolean tooLong(String text) {
        return text.length() > Parser.MAX_LENGTH && !StatementReader.isJs(text);
    }

    /**
     * Compiles {@code line} once (see {@link Statement}): a query through the engine, a command into
     * the plan it makes of its arguments; a line that names no command is refused, its error kept for
     * when it runs. Null for a line with nothing to compile (blank, a comment, {@link #tooLong}),
     * which {@link Shell#execute(String)} takes as it is. Never throws.
     */
    Statement compile(String line) {
        String text = line.strip();
        if (text.isEmpty() || StatementReader.isComment(text) || tooLong(text)) return null;
        return switch (StatementKind.of(text, engine.entities(), w -> commands.byName(w) != null)) {
            case QUERY -> new Statement.Query(text, engine.compile(text));
            case COMMAND -> {
                try {
                    yield new Statement.Invocation(text, plan(text));
                } catch (CommandException e) {
                    yield new Statement.Refused(text, e);
                }
            }
        };
    }

    /** The plan of a command statement. */
    private CommandPlan plan(String text) throws CommandException {
        String[] head = text.split("\\s+", 2);
        String name = head.length == 1 ? SqlHabits.withoutTerminator(head[0]) : head[0];
        Command c = commands.byName(name);
        if (c == null) {
            List<String> known = new ArrayList<>(commands.names());
            known.addAll(engine.entities());
            String sql = SqlHabits.forStatement(SqlHabits.withoutTerminator(text));
            throw new CommandException("unknown command '" + name + "'" + (sql.isEmpty() ? NearNames.hint(name, known)
                    + " (type 'help' for the list)" : sql));
        }
        String args = head.length < 2 ? "" : head[1];
        try {
            return c.plan(ctx, args);
        } catch (Words.Unterminated e) {
            throw e.shifted(text.length() - args.length());   // columns count from the statement's start
        }
    }

    /**
     * Runs a statement {@link #compile} made. A command's argument error is drawn under the
     * statement, a caret at the word, as a query's error is.
     */
    Status run(Statement s) throws CommandException, Engine.Failure, IOException {
        if (s instanceof Statement.Query q) return runQuery(q.query().current());
        try {
            if (s instanceof Statement.Refused r) throw r.error();
            return runCommand(((Statement.Invocation) s).plan());
        } catch (ArgumentError e) {
            String[] head = s.text().split("\\s+", 2);
            throw new Engine.Failure(e.render(s.text(), head.length < 2 ? s.text().length() : s.text().length() - head[1].length()));
        }
    }

    private Status runQuery(Engine.Compiled query) throws CommandException, Engine.Failure, IOException {
        HloModule m = ctx.modules().require();
        if (query.readsUsedValues()) ctx.modules().readUsedValues(m);
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
                if (Thread.currentThread().isInterrupted()) throw new CommandException(CANCELLED);
                throw f;
            }
        }
        // Ctrl-C in the REPL interrupts this thread: a query that finished meanwhile is not shown.
        if (Thread.currentThread().isInterrupted()) throw new CommandException(CANCELLED);
        ctx.out().print(result);
        return Status.OK;
    }

    private Status runCommand(CommandPlan plan) throws CommandException, Engine.Failure, IOException {
        HloModule m = ctx.modules().current();
        if (m != null && plan.needsCurrentModule() && plan.readsUsedValues()) ctx.modules().readUsedValues(m);
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
