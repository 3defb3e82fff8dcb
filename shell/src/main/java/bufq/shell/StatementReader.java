package bufq.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;

/**
 * Cuts a script ({@code -f}, {@code run}, piped stdin) into statements, reading lazily so a pipe is
 * answered line by line. A line whose first non-blank character is {@code #} is a comment; a line
 * ending in {@code \} continues on the next; so does a query that is visibly unfinished (an open
 * parenthesis or string, or a last word such as {@code and}, {@code where}, {@code ,} or {@code =}).
 * Binary input (NUL bytes, bytes that are not UTF-8) stops the reader before anything in that
 * line runs: garbage must never be executed as commands.
 */
public final class StatementReader {
    /** One statement and the 1-based line it starts on. */
    public record Statement(String text, int line) {}

    private static final Set<String> CONTINUES = Set.of("where", "and", "or", "not", "by", "show", "order", "group",
            "in", "at", "during", "live", "limit", "is", "as", ",", "=", "!=", "<", "<=", ">", ">=", "~", "..", "(");

    /** The input holds NUL bytes or undecodable bytes: a binary file, not a script. Nothing more is read. */
    public static final class NotTextException extends IOException {
        public NotTextException(int line) {
            super("binary data at line " + line + ", not a script", null);
        }
    }

    private final BufferedReader in;
    private final Collection<String> entities;
    private int lineNo;

    /**
     * A line reader over UTF-8 bytes that marks undecodable bytes with U+FFFD instead of failing a
     * whole buffer at once, so {@link #next} stops exactly at the first bad line.
     */
    public static BufferedReader utf8(java.io.InputStream in) {
        return new BufferedReader(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE)));
    }

    public StatementReader(BufferedReader in, Collection<String> entities) {
        this.in = in;
        this.entities = entities;
    }

    /** The next statement, or null at the end of input. A trailing unfinished statement is returned as is. */
    public Statement next() throws IOException {
        try {
            return read();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new NotTextException(lineNo + 1);
        }
    }

    private Statement read() throws IOException {
        StringBuilder buf = new StringBuilder();
        int start = 0;
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (line.indexOf('\0') >= 0 || line.indexOf('\uFFFD') >= 0) throw new NotTextException(lineNo);
            String t = line.strip();
            if (buf.length() == 0) {
                if (t.isEmpty() || t.startsWith("#")) continue;
                start = lineNo;
            }
            if (t.endsWith("\\")) {
                buf.append(t.substring(0, t.length() - 1).stripTrailing()).append(' ');
                continue;
            }
            if (isJs(buf.length() == 0 ? t : buf.toString())) {
                // JavaScript keeps its line breaks: they end // comments and statements.
                buf.append(buf.length() == 0 ? t : line);
                if (needsMore(buf.toString(), entities)) {
                    buf.append('\n');
                    continue;
                }
                return new Statement(buf.toString().strip(), start);
            }
            buf.append(t);
            if (needsMore(buf.toString(), entities)) {
                buf.append(' ');
                continue;
            }
            return new Statement(buf.toString().strip(), start);
        }
        String rest = buf.toString().strip();
        return rest.isEmpty() ? null : new Statement(rest, start);
    }

    /** Whether {@code text} is a {@code js} command, whose code keeps its line breaks. */
    public static boolean isJs(String text) {
        String t = text.stripLeading();
        return t.startsWith("js") && (t.length() == 2 || Character.isWhitespace(t.charAt(2)));
    }

    /**
     * Whether {@code text} is a query that cannot end here, or {@code js} code that is unfinished (an
     * open bracket, string or comment). Other commands never continue without {@code \}.
     */
    public static boolean needsMore(String text, Collection<String> entities) {
        String t = text.strip();
        if (isJs(t)) return t.length() > 2 && bufq.shell.script.JsSource.incomplete(t.substring(3));
        int sp = 0;
        while (sp < t.length() && !Character.isWhitespace(t.charAt(sp)) && t.charAt(sp) != '(') sp++;
        if (!entities.contains(t.substring(0, sp).toLowerCase(Locale.ROOT))) return false;
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < t.length(); i++) {
            char ch = t.charAt(i);
            if (inString) {
                if (ch == '\\') i++;
                else if (ch == '"') inString = false;
            } else if (ch == '"') inString = true;
            else if (ch == '(') depth++;
            else if (ch == ')') depth--;
        }
        if (inString || depth > 0) return true;
        int w = t.length();
        while (w > 0 && !Character.isWhitespace(t.charAt(w - 1))) w--;
        String last = t.substring(w).toLowerCase(Locale.ROOT);
        if (CONTINUES.contains(last)) return true;
        // A trailing operator glued to the previous word: "size >=", "a,".
        return last.endsWith(",") || last.endsWith("=") || last.endsWith("<") || last.endsWith(">")
                || last.endsWith("~") || last.endsWith("..") || last.endsWith("(");
    }
}
