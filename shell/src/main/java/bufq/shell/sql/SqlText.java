package bufq.shell.sql;

import bufq.lang.Diagnostic;
import bufq.shell.session.Engine;

import java.util.List;

/**
 * Checks on an SQL statement's text before DuckDB sees it. DuckDB's parser, binder and JSON reader
 * recurse once per level of nesting on a native stack: 50,000 nested brackets end the process
 * (SIGSEGV), not the statement. So brackets of any kind, {@code (}, {@code [} and {@code {}, are
 * counted over the whole text, inside string literals too (a JSON text in a literal is parsed as
 * deep as it nests), and a statement nested deeper than {@link #MAX_NESTING} is refused.
 */
final class SqlText {
    private SqlText() {}

    /** How deep brackets may nest in one statement. */
    static final int MAX_NESTING = 128;

    /** Refuses {@code sql} where its brackets nest deeper than {@link #MAX_NESTING}, a caret under the first past it. */
    static void checkNesting(String sql) throws Engine.Failure {
        int depth = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '(' || c == '[' || c == '{') {
                if (++depth > MAX_NESTING)
                    throw new Engine.Failure(new Diagnostic(i, i + 1, "brackets nested more than " + MAX_NESTING
                            + " deep: refused before DuckDB, whose parser would overflow its stack", List.of()).render(sql));
            } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
                depth--;
            }
        }
    }
}
