package bufq.shell.sql;

import bufq.lang.Diagnostic;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DuckDB's errors as bufq prints its own: the statement's line, a caret under the spot DuckDB names
 * ({@code LINE n:} and its caret in DuckDB's message), and the message in one lowercase line.
 */
final class Failures {
    private Failures() {}

    /** The context DuckDB appends: {@code LINE 1: select ...} and a line holding its caret. */
    private static final Pattern CONTEXT = Pattern.compile("\\n*LINE (\\d+): ([^\\n]*)\\n( *)\\^\\s*$");
    /** What the JDBC driver puts before the error of a query that failed when run. */
    private static final Pattern PENDING = Pattern.compile("(?s)^.*?Attempting to execute an unsuccessful or closed pending query result\\s*Error: ");
    /** {@code Parser Error: syntax error at or near "end"}: the word, and the error's kind. */
    private static final Pattern NEAR = Pattern.compile("syntax error at or near \"([^\"]*)\"");

    /** {@code Binder Error: Referenced column ...}: the kind and the rest. */
    private static final Pattern KIND = Pattern.compile("(?s)([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)*) Error: (.*)");

    private static String lowerFirst(String s) {
        // "Referenced column" reads as a sentence; an upper-case word ("SELECT", "FROM") stays as it is.
        if (s.length() > 1 && Character.isUpperCase(s.charAt(0)) && Character.isLowerCase(s.charAt(1)))
            return s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
        return s;
    }

    /** Column names DuckDB reserves as keywords: a query must quote them. */
    static final Set<String> RESERVED = Set.of("end", "offset");

    /** The error in one line: its kind and text, lowercase first, without DuckDB's context lines. */
    static String message(SQLException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        m = PENDING.matcher(m).replaceFirst("");
        Matcher c = CONTEXT.matcher(m);
        if (c.find()) m = m.substring(0, c.start());
        m = m.strip().replaceAll("!?\\s*\\n+\\s*", "; ").replaceAll("!$", "");
        Matcher k = KIND.matcher(m);
        if (k.matches()) m = k.group(1).toLowerCase(Locale.ROOT) + " error: " + lowerFirst(k.group(2));
        return lowerFirst(m);
    }

    /**
     * {@code e} on {@code sql} as a rendered diagnostic: the line, the caret, the message; where DuckDB
     * names no spot, the message alone. A syntax error at a column name that is an SQL keyword says
     * to quote it.
     */
    static String render(SQLException e, String sql) {
        String msg = message(e);
        String hint = hint(msg, sql);
        if (hint != null) msg = msg + "; " + hint;
        int at = position(e.getMessage() == null ? "" : PENDING.matcher(e.getMessage()).replaceFirst(""), sql);
        if (at < 0) return msg;
        int end = at;
        while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) end++;
        return new Diagnostic(at, Math.max(end, at + 1), msg, List.of()).render(sql);
    }

    /** The offset in {@code sql} of the spot DuckDB's message points at, or -1. */
    static int position(String message, String sql) {
        Matcher c = CONTEXT.matcher(message);
        if (!c.find()) return -1;
        int lineNo = Integer.parseInt(c.group(1));
        String shown = c.group(2);
        int caret = c.group(3).length() - "LINE ".length() - c.group(1).length() - ": ".length();
        int lineStart = 0;
        for (int i = 1; i < lineNo; i++) {
            int nl = sql.indexOf('\n', lineStart);
            if (nl < 0) return -1;
            lineStart = nl + 1;
        }
        int lineEnd = sql.indexOf('\n', lineStart);
        String line = sql.substring(lineStart, lineEnd < 0 ? sql.length() : lineEnd);
        // DuckDB shows a long line as a window of it, "..." at a cut end: find the window in the line.
        int lead = 0;
        if (shown.startsWith("...")) {
            shown = shown.substring(3);
            lead = 3;
        }
        if (shown.endsWith("...")) shown = shown.substring(0, shown.length() - 3);
        int from = line.indexOf(shown);
        if (from < 0 || caret < lead) return -1;
        int col = from + caret - lead;
        return col > line.length() ? -1 : lineStart + col;
    }

    private static String hint(String msg, String sql) {
        Matcher m = NEAR.matcher(msg);
        for (String word : RESERVED) {
            boolean near = m.find(0) && (m.group(1).equalsIgnoreCase(word) || m.group(1).equalsIgnoreCase("from"));
            if (near && Pattern.compile("(?i)(^|[^\"\\w.])" + word + "($|[^\"\\w])").matcher(sql).find())
                return "'" + word + "' is an SQL keyword: write the column as \"" + word + "\"";
        }
        return null;
    }
}
