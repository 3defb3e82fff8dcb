package bufq.shell.session;

import java.util.Collection;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The one answer to "is this line a query?", for the shell that runs it, the reader that gathers a
 * statement's lines and the REPL that completes and colours it: a line whose first word is an entity
 * ({@code values}, {@code steps}, ...) is a query, anything else a command. A command named like an
 * entity runs as the command when given alone: {@code modules} lists the loaded modules, {@code
 * modules where ...} queries them (docs/inputs.md).
 */
public final class StatementKind {
    private StatementKind() {}

    /**
     * @param entities  the query language's entity names, lowercase
     * @param isCommand whether a word names a command (or an alias)
     */
    public static boolean isQuery(CharSequence line, Collection<String> entities, Predicate<String> isCommand) {
        String word = firstWord(line);
        if (line.toString().strip().length() == word.length() && isCommand.test(word)) return false;
        return entities.contains(word.toLowerCase(Locale.ROOT));
    }

    /** As {@link #isQuery(CharSequence, Collection, Predicate)} with the session's commands. */
    public static boolean isQuery(CharSequence line, Collection<String> entities, CommandDocs commands) {
        return isQuery(line, entities, w -> commands.byName(w) != null);
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
