package bufq.shell.statement;

import java.util.Collection;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * What a statement is, decided here and nowhere else, for the shell that compiles and runs it, the
 * reader that gathers a statement's lines, the REPL that completes and colours it and the commands
 * that take a query ({@code why values where ...}): a line whose first word is an entity ({@code
 * values}, {@code steps}, ...), in any case, is a query, anything else a command. A command named
 * like an entity runs as the command when given alone: {@code modules} lists the loaded modules,
 * {@code modules where ...} queries them (docs/inputs.md).
 */
public enum StatementKind {
    /** A query in the small language, compiled by the engine. */
    QUERY,
    /** A command, planned from its arguments (a {@code js} statement is the command {@code js}). */
    COMMAND;
    // A statement in another language (`sql SELECT ...`) is a kind of its own here: decided
    // in of(), compiled in StatementRunner.compile.

    /**
     * The kind of {@code line}.
     *
     * @param entities  the query language's entity names, lowercase
     * @param isCommand whether a word names a command (or an alias)
     */
    public static StatementKind of(CharSequence line, Collection<String> entities, Predicate<String> isCommand) {
        String word = firstWord(line);
        if (line.toString().strip().length() == word.length() && isCommand.test(word)) return COMMAND;
        return startsQuery(line, entities) ? QUERY : COMMAND;
    }


    /** Whether {@code line} runs as a query: {@link #of} says {@link #QUERY}. */
    public static boolean isQuery(CharSequence line, Collection<String> entities, Predicate<String> isCommand) {
        return of(line, entities, isCommand) == QUERY;
    }


    /**
     * Whether {@code line} starts as a query: its first word is an entity. The statement reader and
     * the REPL's continuation rule ask this, since a bare {@code modules} may still go on over lines
     * ({@code modules} then {@code where kind = "profile"}); what runs is {@link #isQuery}'s answer
     * for the whole statement.
     */
    public static boolean startsQuery(CharSequence line, Collection<String> entities) {
        return entities.contains(firstWord(line).toLowerCase(Locale.ROOT));
    }

    /**
     * The leading run of letters, digits and underscores of {@code text}, after its leading
     * whitespace; reads no further (the statement reader asks on every line of a long statement).
     */
    public static String firstWord(CharSequence text) {
        int s = 0;
        while (s < text.length() && Character.isWhitespace(text.charAt(s))) s++;
        int i = s;
        while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) i++;
        return text.subSequence(s, i).toString();
    }
}
