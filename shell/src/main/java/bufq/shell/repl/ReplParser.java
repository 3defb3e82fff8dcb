package bufq.shell.repl;

import bufq.shell.statement.StatementKind;
import bufq.shell.statement.StatementReader;
import org.jline.reader.CompletingParsedLine;
import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;
import org.jline.reader.SyntaxError;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * bufq's JLine {@link Parser}. On Enter it throws {@link EOFError} for input that cannot end yet (a
 * query with an open parenthesis or string, a trailing {@code and}/{@code where}/operator, any line
 * ending in {@code \}), so JLine asks for another line; the rule is {@link StatementReader#needsMore},
 * the one scripts use ({@code js} code continues while a bracket, string or comment is open). For completion it cuts the line into words: whitespace separates, a double
 * quoted string is one word, and in a query the symbols {@code ( ) , = < > ! ~} end a word too.
 */
public final class ReplParser implements Parser {
    private static final String QUERY_SEPARATORS = "(),=<>!~";

    private final Supplier<? extends Collection<String>> entities;
    private final Predicate<String> scriptIncomplete;

    /**
     * @param entities         the entity names (they change when scripts add fields)
     * @param scriptIncomplete whether {@code js} code is unfinished: the session's script engine's rule
     */
    public ReplParser(Supplier<? extends Collection<String>> entities, Predicate<String> scriptIncomplete) {
        this.entities = entities;
        this.scriptIncomplete = scriptIncomplete;
    }

    @Override public ParsedLine parse(String line, int cursor, ParseContext context) throws SyntaxError {
        if (context == ParseContext.ACCEPT_LINE) {
            String t = line.stripTrailing();
            if (t.endsWith("\\")) throw new EOFError(-1, -1, "line continues", "\\");
            String text = StatementReader.isJs(line) ? line : statement(line);  // JavaScript keeps its line breaks
            if (StatementReader.needsMore(text, entities.get(), scriptIncomplete))
                throw new EOFError(-1, -1, "unfinished statement", "statement");
        }
        return split(line, cursor);
    }

    /**
     * The statement a (possibly multi-line) buffer stands for: {@code \} + newline joins lines,
     * newlines are spaces. Same length as the input, so offsets into it stay valid.
     */
    public static String statement(String buffer) {
        if (StatementReader.isJs(buffer)) return buffer; // JavaScript keeps its line breaks (// comments, ASI)
        return buffer.replace("\\\n", "  ").replace('\n', ' ').replace('\r', ' ');
    }

    /** The statement to run: like {@link #statement} but {@code \} + newline becomes one space. */
    public static String joined(String buffer) {
        if (StatementReader.isJs(buffer)) return buffer;
        return statement(buffer.replaceAll("[ \t]*\\\\\r?\n[ \t]*", " "));
    }

    /** What to run for an accepted buffer: {@link #joined}, except that {@code js} code keeps its lines. */
    public static String toRun(String buffer) {
        return (StatementReader.isJs(buffer) ? buffer : joined(buffer)).strip();
    }

    ReplLine split(String line, int cursor) {
        boolean query = StatementKind.startsQuery(line, entities.get());  // a query being typed
        List<String> words = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        int wordIndex = -1, wordCursor = 0;
        int n = line.length();
        int i = 0;
        while (i <= n) {
            while (i < n && Character.isWhitespace(line.charAt(i))) i++;
            if (query) while (i < n && QUERY_SEPARATORS.indexOf(line.charAt(i)) >= 0) {
                i++;
                while (i < n && Character.isWhitespace(line.charAt(i))) i++;
            }
            if (i >= n) break;
            int start = i;
            if (line.charAt(i) == '"') {
                i++;
                while (i < n && line.charAt(i) != '"') i += line.charAt(i) == '\\' ? 2 : 1;
                i = Math.min(n, i + 1);
            } else {
                while (i < n && !Character.isWhitespace(line.charAt(i))
                        && !(query && QUERY_SEPARATORS.indexOf(line.charAt(i)) >= 0)) i++;
            }
            if (start <= cursor && cursor <= i) {
                wordIndex = words.size();
                wordCursor = cursor - start;
            }
            words.add(line.substring(start, Math.min(i, n)));
            starts.add(start);
        }
        if (wordIndex < 0) {
            // The cursor is in a gap between words: complete an empty word there.
            int at = 0;
            while (at < starts.size() && starts.get(at) < cursor) at++;
            words.add(at, "");
            starts.add(at, cursor);
            wordIndex = at;
            wordCursor = 0;
        }
        return new ReplLine(line, cursor, List.copyOf(words), wordIndex, wordCursor, starts.get(wordIndex));
    }

    /** A parsed line; the word under the cursor is replaced whole by a completion, unescaped. */
    record ReplLine(String line, int cursor, List<String> words, int wordIndex, int wordCursor, int wordStart)
            implements CompletingParsedLine {
        @Override public String word() { return words.get(wordIndex); }
        @Override public CharSequence escape(CharSequence candidate, boolean complete) { return candidate; }
        @Override public int rawWordCursor() { return wordCursor; }
        @Override public int rawWordLength() { return word().length(); }
    }
}
