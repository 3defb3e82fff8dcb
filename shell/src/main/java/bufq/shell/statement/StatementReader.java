package bufq.shell.statement;

import bufq.lang.Lexer;
import bufq.lang.Parser;
import bufq.lang.Token;
import bufq.lang.TokenKind;
import bufq.lang.Unfinished;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Cuts a script ({@code -f}, {@code run}, piped stdin) into statements, reading lazily so a pipe is
 * answered line by line. A line whose first non-blank characters are {@code #} or {@code --} is a
 * comment, and so is the rest of a query's line from a {@code #} or {@code --} outside a string; a line
 * ending in {@code \} continues on the next; so does a query that is visibly unfinished (an open
 * parenthesis or string, or a last word such as {@code and}, {@code where}, {@code ,} or {@code =}),
 * and a query whose next line starts with a clause keyword ({@code where}, {@code and}, {@code or},
 * {@code group}, {@code show}, {@code order}, {@code limit}). A query therefore runs once the next
 * line has been read; in a pipe, a blank line after it makes it run at once.
 * Binary input (NUL bytes, bytes that are not UTF-8) stops the reader before anything in that
 * line runs: garbage must never be executed as commands.
 */
public final class StatementReader {
    /** One statement and the 1-based line it starts on. */
    public record Statement(String text, int line) {}

    /** Keywords that, first on a line, continue the query on the line before. */
    private static final Set<String> STARTS_CLAUSE = Set.of("where", "and", "or", "group", "show", "order", "limit");

    /** The input holds NUL bytes or undecodable bytes: a binary file, not a script. Nothing more is read. */
    public static final class NotTextException extends IOException {
        public NotTextException(int line) {
            super("binary data at line " + line + ", not a script", null);
        }

        private NotTextException(String message) {
            super(message, null);
        }
    }

    /** The longest line a script may have; a longer one is data (say {@code -f /dev/zero}), read no further. */
    public static final int MAX_LINE = 1 << 20;

    private final BufferedReader in;
    private final Collection<String> entities;
    private final Predicate<String> scriptIncomplete;
    private final Supplier<UnfinishedCode> unfinished;
    private int lineNo;
    private String peeked;

    /**
     * A line reader over UTF-8 bytes that marks undecodable bytes with U+FFFD instead of failing a
     * whole buffer at once, so {@link #next} stops exactly at the first bad line.
     */
    public static BufferedReader utf8(InputStream in) {
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE)));
    }

    /**
     * @param entities         entity names: a statement starting with one is a query
     * @param scriptIncomplete whether the code of a {@code js} statement is unfinished (the script
     *                         engine's rule; see ScriptEngine.incomplete)
     */
    public StatementReader(BufferedReader in, Collection<String> entities, Predicate<String> scriptIncomplete) {
        this(in, entities, scriptIncomplete, () -> {
            StringBuilder all = new StringBuilder();
            return new UnfinishedCode() {
                @Override public void add(CharSequence code) { all.append(code); }
                @Override public boolean incomplete() { return scriptIncomplete.test(all.toString()); }
            };
        });
    }

    /**
     * @param unfinished a {@code js} statement's code, read as its lines come ({@link
     *                   ScriptEngine#unfinished}): the engine's scan reads each line once
     */
    public StatementReader(BufferedReader in, Collection<String> entities, Predicate<String> scriptIncomplete,
                           Supplier<UnfinishedCode> unfinished) {
        this.in = in;
        this.entities = entities;
        this.scriptIncomplete = scriptIncomplete;
        this.unfinished = unfinished;
    }

    /** The next statement, or null at the end of input. A trailing unfinished statement is returned as is. */
    public Statement next() throws IOException {
        try {
            return read();
        } catch (CharacterCodingException e) {
            throw new NotTextException(lineNo + 1);
        }
    }

    private Statement read() throws IOException {
        StringBuilder buf = new StringBuilder();
        Unfinished open = new Unfinished();
        UnfinishedCode js = null;
        int jsRead = 0;   // characters of buf the js scan has read
        boolean jsCode = false;
        int start = 0;
        String line;
        while ((line = nextLine()) != null) {
            String t = line.strip();
            if (buf.length() == 0) {
                if (t.isEmpty() || isComment(t)) continue;
                start = lineNo;
            }
            if (t.endsWith("\\")) {
                buf.append(t.substring(0, t.length() - 1).stripTrailing()).append(' ');
                continue;
            }
            if (js != null || isJs(buf.length() == 0 ? t : buf)) {
                // JavaScript keeps its line breaks: they end // comments and statements.
                buf.append(buf.length() == 0 ? t : line);
                // The code (after "js ") is scanned as it comes, each character once: scanning the
                // whole statement again on every line was quadratic (100,000 lines never ended).
                if (js == null) {
                    js = unfinished.get();
                    jsRead = Math.min(3, buf.length());
                }
                String piece = buf.substring(jsRead);
                js.add(piece);
                jsRead = buf.length();
                jsCode |= !piece.isBlank();   // "js" alone is finished
                if (jsCode && js.incomplete()) {
                    buf.append('\n');
                    continue;
                }
                return new Statement(buf.toString().strip(), start);
            }
            if (startsQuery(buf.length() == 0 ? t : buf)) {
                // the lines are joined with blanks, so a comment must end where its line does
                int c = Lexer.commentStart(t);
                if (c >= 0) t = t.substring(0, c).stripTrailing();
            }
            boolean query = startsQuery(buf.length() == 0 ? t : buf);
            buf.append(t);
            // Past the bound the statement is refused as it is (lexing it whole on every line was
            // quadratic); its remaining lines are read a line at a time and dropped.
            if (buf.length() > Parser.MAX_LENGTH) {
                // A query's lines are followed to its end (an open string or parenthesis, a last
                // word that needs more, a next line that starts a clause): one error for all.
                String last = t;
                if (query) open.line(t);
                while (query ? open.more() || continuesOnNextLine() : lineContinues(last) || continuesOnNextLine()) {
                    last = nextLine();
                    if (last == null) break;
                    last = last.strip();
                    if (query) open.line(last);
                }
                return new Statement(buf.toString().strip(), start);
            }
            boolean more;
            if (query) {
                // A query's lines are lexed one at a time (a string spanning lines is scanned a line
                // at a time too): lexing the whole statement again on every line was quadratic.
                open.line(t);
                more = open.more();
            } else {
                more = needsMore(buf.toString(), entities, scriptIncomplete);
            }
            if (more || query && continuesOnNextLine()) {
                buf.append(' ');
                continue;
            }
            return new Statement(buf.toString().strip(), start);
        }
        String rest = buf.toString().strip();
        return rest.isEmpty() ? null : new Statement(rest, start);
    }

    private String nextLine() throws IOException {
        String l;
        if (peeked != null) {
            l = peeked;
            peeked = null;
        } else {
            l = readLine();
            if (l == null) return null;
        }
        lineNo++;
        if (l.indexOf('\0') >= 0 || l.indexOf('\uFFFD') >= 0) throw new NotTextException(lineNo);
        if (lineNo == 1 && l.startsWith("\uFEFF")) l = l.substring(1); // a byte-order mark from some editors
        return l;
    }

    /**
     * As {@link BufferedReader#readLine}, but stops at a NUL (binary data) or past {@link #MAX_LINE}
     * characters, so an endless line is refused at once instead of filling the heap.
     */
    private String readLine() throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') return b.toString();
            if (c == '\r') {
                in.mark(1);
                if (in.read() != '\n') in.reset();
                return b.toString();
            }
            if (c == 0) throw new NotTextException(lineNo + 1);
            if (b.length() >= MAX_LINE)
                throw new NotTextException("line " + (lineNo + 1) + " is longer than " + (MAX_LINE >> 20) + " Mi characters, not a script");
            b.append((char) c);
        }
        return b.length() == 0 ? null : b.toString();
    }

    /** A statement that starts as a query may go on over lines (a bare {@code modules} too: {@code where ...} may follow). */
    private boolean startsQuery(CharSequence text) {
        return StatementKind.startsQuery(text, entities);
    }

    /**
     * Reads the next line ahead: a complete query still continues when that line starts with a
     * clause keyword ({@code order by ...}, {@code and ...}), the way people lay out long queries.
     * So a query runs when the next line arrives, a blank line, or the end of input.
     */
    private boolean continuesOnNextLine() throws IOException {
        String l = in.readLine();
        if (l == null) return false;
        peeked = l; // checked for binary data when it is taken

        List<Token> tokens = Lexer.lex(l);
        return tokens.get(0).kind() == TokenKind.KEYWORD && STARTS_CLAUSE.contains(tokens.get(0).text().toLowerCase(Locale.ROOT));
    }

    /** Whether one line ends where a query cannot ({@code and}, {@code =}, {@code ,}), by its own tokens. */
    private static boolean lineContinues(String line) {
        Unfinished u = new Unfinished();
        u.line(line);
        return u.more();
    }

    /** Whether a stripped line is a comment: it starts with {@code #} or {@code --}, as in shell and SQL scripts. */
    public static boolean isComment(String line) {
        return line.startsWith("#") || line.startsWith("--");
    }

    /** Whether {@code text} is a {@code js} command, whose code keeps its line breaks. */
    public static boolean isJs(CharSequence text) {
        // Reads no further than the first word: the statement reader asks on every line.
        int s = 0;
        while (s < text.length() && Character.isWhitespace(text.charAt(s))) s++;
        return s + 2 <= text.length() && text.charAt(s) == 'j' && text.charAt(s + 1) == 's'
                && (s + 2 == text.length() || Character.isWhitespace(text.charAt(s + 2)));
    }

    /**
     * Whether {@code text} is a query that cannot end here, or {@code js} code that is unfinished (an
     * open bracket, string or comment): for a query, an open parenthesis or string, or a last
     * token that needs more ({@code where}, {@code and}, {@code order by}, {@code ,}, {@code =},
     * {@code ..}). Uses the query lexer, so it agrees with the parser on what a token is. Commands
     * never continue without a trailing backslash.
     */
    public static boolean needsMore(String text, Collection<String> entities, Predicate<String> scriptIncomplete) {
        String js = text.strip();
        if (isJs(js)) return js.length() > 2 && scriptIncomplete.test(js.substring(3));
        return StatementKind.startsQuery(text, entities) && Unfinished.query(text);
    }
}
