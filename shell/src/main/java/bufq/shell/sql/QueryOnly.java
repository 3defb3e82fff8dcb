package bufq.shell.sql;

import bufq.lang.Diagnostic;
import bufq.shell.session.Engine;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Lets through only statements that query: what {@code sql} runs can read the session's tables and
 * the allowed folders, and write nothing ({@code COPY ... TO}, {@code EXPORT DATABASE}, {@code
 * ATTACH}), change no setting and make nothing.
 *
 * <p>DuckDB's own parser decides, not a pattern on the text: {@code json_serialize_sql} parses the
 * whole text, runs none of it, and serializes it only when every statement is a query (SELECT,
 * WITH, VALUES, FROM first, DESCRIBE, SHOW, SUMMARIZE, set operations); any other statement makes
 * it fail. A query can still call a table function that acts ({@code enable_logging} writes log
 * files and, pointed at a refused folder, breaks every later statement; {@code checkpoint}; {@code
 * query} runs a text this check never saw): each function the parse names must be a reading one
 * ({@link #READING}), or not a table function at all. {@code EXPLAIN} and {@code EXPLAIN ANALYZE}
 * lead a query only as the text's first word, so that the rest is exactly what DuckDB parses after it.
 */
final class QueryOnly {
    private QueryOnly() {}

    /** The statements that run, as the refusal lists them. */
    static final String KINDS = "SELECT, WITH, VALUES, FROM, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN";

    /** Table functions that only read: their names, and the prefixes of families of them. */
    private static final Set<String> READING = Set.of("range", "generate_series", "unnest", "glob", "json_each", "json_tree",
            "sniff_csv", "repeat", "repeat_row", "histogram", "histogram_values", "summary", "test_all_types", "test_vector_types",
            "pg_timezone_names", "icu_calendar_names", "version", "platform", "user_agent", "database_size", "database_list",
            "table_info", "storage_info", "metadata_info", "show", "show_tables", "show_tables_expanded", "show_databases",
            "functions", "collations", "extension_versions", "which_secret");
    private static final List<String> READING_FAMILIES = List.of("read_", "parquet_", "duckdb_", "pragma_");

    /** Scalar functions that act: {@code write_log} writes to DuckDB's log. */
    private static final Set<String> ACTING_SCALARS = Set.of("write_log");

    /** DuckDB's table, table macro and pragma functions, read once from its catalog. */
    private static volatile Set<String> tableFunctions;

    /** Refuses {@code sql} unless each of its statements only queries, with a caret under what it refused. */
    static void check(Connection c, String sql) throws SQLException, Engine.Failure {
        int from = explained(sql);
        String body = sql.substring(from);
        String json;
        try (PreparedStatement p = c.prepareStatement(
                "SELECT j->>'error' = 'true', j->>'error_type', CAST(j AS VARCHAR) FROM (SELECT json_serialize_sql(?::VARCHAR) AS j)")) {
            p.setString(1, body);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                if (rs.getBoolean(1)) {
                    // Text DuckDB cannot parse runs none of it: its own run reports the error, with its spot.
                    if (from == 0 && "parser".equals(rs.getString(2))) return;
                    throw refusal(sql, from);
                }
                json = rs.getString(3);
            }
        }
        // Read whole before judging: results stream, and a second statement on the connection would end this one's.
        List<String> names = new ArrayList<>();
        List<Long> spots = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement("SELECT lower(f.value->>'$'), TRY_CAST(l.value->>'$' AS BIGINT)"
                + " FROM json_tree(?::JSON) f LEFT JOIN json_tree(?::JSON) l ON l.parent = f.parent AND l.key = 'query_location'"
                + " WHERE f.key = 'function_name' ORDER BY 2")) {
            p.setString(1, json);
            p.setString(2, json);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                    long at = rs.getLong(2);
                    spots.add(rs.wasNull() ? -1 : at);
                }
            }
        }
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (!acts(c, name)) continue;
            int spot = spots.get(i) < 0 ? -1 : from + charOffset(body, spots.get(i));
            String msg = "sql runs queries only: " + name + "() acts on DuckDB's state or files, it does not only read; refused";
            if (spot < 0 || spot >= sql.length()) throw new Engine.Failure(msg);
            throw new Engine.Failure(new Diagnostic(spot, Math.min(sql.length(), spot + name.length()), msg).render(sql));
        }
    }

    /** Whether the function {@code name} a query calls does more than read. */
    private static boolean acts(Connection c, String name) throws SQLException {
        if (ACTING_SCALARS.contains(name)) return true;
        if (READING.contains(name) || READING_FAMILIES.stream().anyMatch(name::startsWith)) return false;
        return tableFunctions(c).contains(name);
    }

    private static Set<String> tableFunctions(Connection c) throws SQLException {
        Set<String> known = tableFunctions;
        if (known != null) return known;
        Set<String> names = new HashSet<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT DISTINCT lower(function_name) FROM duckdb_functions()"
                + " WHERE function_type IN ('table', 'table_macro', 'pragma')")) {
            while (rs.next()) names.add(rs.getString(1));
        }
        tableFunctions = Set.copyOf(names);
        return tableFunctions;
    }

    /**
     * The offset past a leading {@code EXPLAIN} or {@code EXPLAIN ANALYZE}, or 0. Only when the text
     * starts with it (blanks before it, no comment: a comment may nest in DuckDB's lexer), and only
     * followed by a blank, so the rest is lexed by DuckDB as it would be after the keyword.
     */
    static int explained(String sql) {
        int i = blanks(sql, 0);
        int after = word(sql, i, "explain");
        if (after < 0) return 0;
        int j = blanks(sql, after);
        int analyze = Math.max(word(sql, j, "analyze"), word(sql, j, "analyse"));
        return analyze < 0 ? after : analyze;
    }

    private static int blanks(String s, int i) {
        while (i < s.length() && " \t\r\n\f".indexOf(s.charAt(i)) >= 0) i++;
        return i;
    }

    /** The offset past {@code w} at {@code i} when a blank follows it, else -1. */
    private static int word(String s, int i, String w) {
        int end = i + w.length();
        if (end >= s.length() || !s.regionMatches(true, i, w, 0, w.length())) return -1;
        return " \t\r\n\f".indexOf(s.charAt(end)) >= 0 ? end : -1;
    }

    /** DuckDB's locations count UTF-8 bytes: the character offset of byte {@code at} of {@code s}. */
    private static int charOffset(String s, long at) {
        long bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            if (bytes >= at) return i;
            int cp = s.codePointAt(i);
            bytes += new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (Character.isSupplementaryCodePoint(cp)) i++;
        }
        return s.length();
    }

    /** The refusal of a statement that is not a query: a caret under its first word where the text shows which. */
    private static Engine.Failure refusal(String sql, int from) {
        String kinds = "sql runs queries only (" + KINDS + "); ";
        int at = firstOtherStatement(sql, from);
        if (at < 0) return new Engine.Failure(kinds + "the text holds a statement of another kind; refused");
        int end = at;
        while (end < sql.length() && Character.isLetter(sql.charAt(end))) end++;
        String word = sql.substring(at, end).toUpperCase(Locale.ROOT);
        return new Engine.Failure(new Diagnostic(at, end, kinds + word + " is refused: the sandbox writes no file, changes no setting"
                + " and makes nothing").render(sql));
    }

    private static final Set<String> QUERY_WORDS = Set.of("select", "with", "values", "from", "describe", "show", "summarize",
            "explain", "table");

    /**
     * For the message only (DuckDB has decided): the start of the first statement, split at
     * semicolons outside quotes, whose first word is not a query's; -1 when none is found so.
     */
    private static int firstOtherStatement(String sql, int from) {
        int start = from;
        char quote = 0;
        for (int i = from; i <= sql.length(); i++) {
            char c = i < sql.length() ? sql.charAt(i) : ';';
            if (quote != 0) {
                if (c == quote) quote = 0;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == ';') {
                int w = blanks(sql, start);
                int end = w;
                while (end < i && Character.isLetter(sql.charAt(end))) end++;
                if (end > w && !QUERY_WORDS.contains(sql.substring(w, end).toLowerCase(Locale.ROOT))) return w;
                start = i + 1;
            }
        }
        return -1;
    }
}
