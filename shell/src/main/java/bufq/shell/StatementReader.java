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
 */
public final class StatementReader {
    /** One statement and the 1-based line it starts on. */
    public record Statement(String text, int line) {}

    private static final Set<String> CONTINUES = Set.of("where", "and", "or", "not", "by", "show", "order", "group",
            "in", "at", "during", "live", "limit", "is", "as", ",", "=", "!=", "<", "<=", ">", ">=", "~", "..", "(");

    private final BufferedReader in;
    private final Collection<String> entities;
    private int lineNo;

    public StatementReader(BufferedReader in, Collection<String> entities) {
        this.in = in;
        this.entities = entities;
    }

    /** The next statement, or null at the end of input. A trailing unfinished statement is returned as is. */
    public Statement next() throws IOException {
        StringBuilder buf = new StringBuilder();
        int start = 0;
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            String t = line.strip();
            if (buf.length() == 0) {
                if (t.isEmpty() || t.startsWith("#")) continue;
                start = lineNo;
            }
            if (t.endsWith("\\")) {
                buf.append(t.substring(0, t.length() - 1).stripTrailing()).append(' ');
                continue;
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

    /** Whether {@code text} is a query that cannot end here. Commands never continue without {@code \}. */
    public static boolean needsMore(String text, Collection<String> entities) {
        String t = text.strip();
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
