package bufq.shell.api;

import bufq.lang.SqlHabits;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.Status;
import bufq.shell.statement.Words;

import java.io.IOException;
import java.util.List;

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

    /** What a command that takes words runs with them. */
    interface WordsBody {
        Status run(CommandContext ctx, List<String> words) throws CommandException, Engine.Failure, IOException;
    }

    /**
     * The plan of a command taking words: the rest of the line split as the shell splits words (a
     * trailing {@code ;} ends the statement, as in SQL shells), run by {@code body}.
     */
    static CommandPlan words(String args, boolean readsUsedValues, boolean usesScripts, WordsBody body)
            throws CommandException {
        String text = statement(args);
        List<String> words = text.isEmpty() ? List.of() : Words.split(text);
        return new Simple(readsUsedValues, true, usesScripts, ctx -> body.run(ctx, words));
    }

    /** What a command whose grammar parsed its arguments runs with them. */
    interface ParsedBody {
        Status run(CommandContext ctx, ArgGrammar.Parsed args) throws CommandException, Engine.Failure, IOException;
    }

    /** The plan of a command whose arguments {@code grammar} parses, once, here: {@code body} runs with what it read. */
    static CommandPlan parsed(ArgGrammar grammar, String args, boolean readsUsedValues, ParsedBody body) throws CommandException {
        ArgGrammar.Parsed parsed = grammar.parse(statement(args));
        return new Simple(readsUsedValues, true, false, ctx -> body.run(ctx, parsed));
    }

    /** {@code text} stripped and without a trailing {@code ;}, which ends a statement as in SQL shells. */
    static String statement(String text) {
        return SqlHabits.withoutTerminator(text);
    }

    /** As {@link #words(String, boolean, boolean, WordsBody)}, reading nothing and using no script. */
    static CommandPlan words(String args, WordsBody body) throws CommandException {
        return words(args, false, false, body);
    }

    /**
     * The plan of a command that takes the rest of the line as typed, quotes and all ({@code oom},
     * {@code fit}): {@code body} gets it as one word, or none when there is nothing after the name.
     */
    static CommandPlan text(String args, boolean readsUsedValues, boolean needsCurrentModule, WordsBody body) {
        List<String> words = args.isEmpty() ? List.of() : List.of(args);
        return new Simple(readsUsedValues, needsCurrentModule, false, ctx -> body.run(ctx, words));
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
