package bufq.shell.api;

import bufq.lang.SqlHabits;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.Set;

/**
 * One invocation of a command, its arguments parsed once ({@link Command#plan}): what it reads and
 * whether it may depend on the init script, asked before it runs, then the run itself.
 */
public interface CommandPlan {
    /**
     * Whether the run reads the Used values section: the shell reads it before running it (with a
     * load's progress and Ctrl-C), and a batch run with its load.
     */
    default boolean readsUsedValues() { return false; }

    /**
     * Whether {@link #readsUsedValues()} means the current module's section, which the shell reads
     * before the run; false for a command on other modules ({@code diff}), which reads its own with
     * {@link Modules#readUsedValues}. A batch run reads them with every module it loads either way.
     */
    default boolean needsCurrentModule() { return true; }

    /**
     * Whether the run may depend on what the user's init script registers (fields, tiling models,
     * checks, advise rules) or runs JavaScript: the shell runs a pending init script before it.
     */
    default boolean usesScripts() { return false; }

    /**
     * Whether the run evaluates the user's conditions or queries ({@code whatif}, {@code why values
     * where ...}): it then runs under the query time limit ({@code set timeout}), as a query does.
     */
    default boolean evaluatesConditions() { return false; }

    /** Runs. Throws for user errors; the shell prints them. */
    Status run(CommandContext ctx) throws CommandException, Engine.Failure, IOException;

    /** What a command whose grammar parsed its arguments runs with them. */
    interface ParsedBody {
        Status run(CommandContext ctx, ParsedArgs args) throws CommandException, Engine.Failure, IOException;
    }

    /** The plan of a command whose arguments {@code grammar} parses, once, here: {@code body} runs with what it read. */
    static CommandPlan parsed(ArgGrammar grammar, String args, boolean readsUsedValues, ParsedBody body) throws CommandException {
        return parsed(grammar, args, readsUsedValues, true, false, body);
    }

    /** As {@link #parsed(ArgGrammar, String, boolean, ParsedBody)}, saying whether its needs are the current module's and whether it uses scripts. */
    static CommandPlan parsed(ArgGrammar grammar, String args, boolean readsUsedValues, boolean needsCurrentModule, boolean usesScripts,
                              ParsedBody body) throws CommandException {
        ParsedArgs parsed = grammar.parse(statement(args));
        return new Simple(readsUsedValues, needsCurrentModule, usesScripts, ctx -> body.run(ctx, parsed));
    }

    /** As {@link #parsed(ArgGrammar, String, ParsedBody)}, reading nothing and using no script. */
    static CommandPlan parsed(ArgGrammar grammar, String args, ParsedBody body) throws CommandException {
        return parsed(grammar, args, false, true, false, body);
    }

    /** {@code text} stripped and without a trailing {@code ;}, which ends a statement as in SQL shells. */
    static String statement(String text) {
        return SqlHabits.withoutTerminator(text);
    }

    /** {@code plan}, run under the query time limit ({@code set timeout}) and stopped by Ctrl-C as a query is. */
    static CommandPlan timed(CommandPlan plan) {
        return new CommandPlan() {
            @Override public boolean readsUsedValues() { return plan.readsUsedValues(); }
            @Override public boolean needsCurrentModule() { return plan.needsCurrentModule(); }
            @Override public boolean usesScripts() { return plan.usesScripts(); }
            @Override public boolean evaluatesConditions() { return true; }
            @Override public Status run(CommandContext ctx) throws CommandException, Engine.Failure, IOException { return plan.run(ctx); }
        };
    }

    /** What {@link Simple} runs. */
    interface Body {
        Status run(CommandContext ctx) throws CommandException, Engine.Failure, IOException;
    }

    /** A plan whose reads are known up front. */
    record Simple(boolean readsUsedValues, boolean needsCurrentModule, boolean usesScripts, Body body)
            implements CommandPlan {
        @Override public Status run(CommandContext ctx) throws CommandException, Engine.Failure, IOException {
            return body.run(ctx);
        }
    }
}
