package bufq.lang;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pointers for people who type SQL: each habit that bufq's language does not share ({@code SELECT
 * ... FROM}, {@code LIKE}, {@code count(*)}, {@code OFFSET}, {@code orderby}, psql's {@code \q}) gets
 * a one-line "did you mean" with the bufq form. Pure functions of the text; the parser and the shell
 * call them only once something failed.
 */
public final class SqlHabits {
    private SqlHabits() {}

    private static final Pattern SELECT = Pattern.compile("(?is)\\s*select\\s+(.+?)\\s+from\\s+(\\w+)(.*?)\\s*;?\\s*");
    private static final Pattern LIKE = Pattern.compile("(?i)(\\w+)\\s+(not\\s+)?i?like\\s+'([^']*)'");
    private static final Pattern COUNT_STAR = Pattern.compile("(?i)count\\s*\\(\\s*\\*\\s*\\)");
    private static final Pattern KEYWORD = Pattern.compile("(?i)\\b(where|and|or|not|order|group|by|limit|asc|desc|in|is|null)\\b");
    private static final List<String> QUIT = List.of("\\q", "\\quit", ".quit", ".exit", "\\exit", ":q");

    /**
     * {@code text} stripped and without a trailing {@code ;}, which ends a statement as in SQL shells:
     * every command and query reads its text through this.
     */
    public static String withoutTerminator(String text) {
        String t = text == null ? "" : text.strip();
        return t.endsWith(";") ? t.substring(0, t.length() - 1).stripTrailing() : t;
    }

    /**
     * A hint for a statement that is neither a command nor a query (the shell's "unknown command"),
     * such as {@code ; did you mean 'values limit 3'?}, or the empty string.
     */
    public static String forStatement(String text) {
        String t = text == null ? "" : text.strip();
        if (QUIT.contains(t.toLowerCase(Locale.ROOT))) return "; did you mean 'quit'? (or Ctrl-D)";
        Matcher m = SELECT.matcher(t);
        if (!m.matches()) return "";
        String cols = m.group(1).strip();
        String rest = bufqForm(m.group(3).strip());
        StringBuilder q = new StringBuilder(m.group(2).toLowerCase(Locale.ROOT));
        if (!rest.isEmpty()) q.append(' ').append(rest);
        if (!cols.equals("*")) q.append(" show ").append(bufqForm(cols));
        return "; bufq has no SELECT, queries start with the entity: did you mean '" + q + "'?";
    }

    /** SQL conditions in bufq's words: {@code like '%a%'} as {@code ~ 'a'}, {@code count(*)} as {@code count()}, keywords in lower case. */
    static String bufqForm(String sql) {
        StringBuilder out = new StringBuilder();
        // only outside quotes: a pattern or a name keeps its case
        String[] parts = sql.split("(?=')|(?<=')");
        boolean quoted = false;
        StringBuilder plain = new StringBuilder();
        for (String p : parts) {
            if (p.equals("'")) {
                if (!quoted) { out.append(lowerKeywords(plain.toString())); plain.setLength(0); }
                quoted = !quoted;
                out.append(p);
            } else if (quoted) {
                out.append(p);
            } else {
                plain.append(p);
            }
        }
        out.append(lowerKeywords(plain.toString()));
        String s = COUNT_STAR.matcher(out.toString()).replaceAll("count()");
        Matcher like = LIKE.matcher(s);
        StringBuilder b = new StringBuilder();
        while (like.find()) {
            like.appendReplacement(b, Matcher.quoteReplacement(like.group(1) + (like.group(2) != null ? " !~ " : " ~ ")
                    + "'" + regexOf(like.group(3)) + "'"));
        }
        like.appendTail(b);
        return b.toString();
    }

    private static String lowerKeywords(String s) {
        return KEYWORD.matcher(s).replaceAll(r -> r.group(1).toLowerCase(Locale.ROOT));
    }

    /** A LIKE pattern as the regular expression bufq's {@code ~} takes: {@code %gather%} is {@code gather}, {@code ab%} is {@code ^ab}. */
    static String regexOf(String like) {
        String p = like;
        boolean anchoredStart = !p.startsWith("%");
        boolean anchoredEnd = !p.endsWith("%");
        StringBuilder b = new StringBuilder(anchoredStart ? "^" : "");
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '%') {
                if (i > 0 && i < p.length() - 1) b.append(".*");
            } else if (c == '_') {
                b.append('.');
            } else {
                if ("\\.[]{}()*+?^$|/".indexOf(c) >= 0) b.append('\\');
                b.append(c);
            }
        }
        if (anchoredEnd && !p.isEmpty()) b.append('$');
        return b.toString();
    }

    /**
     * The error for a clause-position word bufq does not know when it is SQL's ({@code like},
     * {@code offset}, {@code orderby}, {@code select}), or null. {@code at} indexes {@code tokens}.
     */
    static QueryException clause(String src, List<Token> tokens, int at, String message) {
        Token t = tokens.get(at);
        // "label not like 'x'": the where clause ends at 'not'
        if (t.isKeyword("not") && at + 1 < tokens.size() && List.of("like", "ilike").contains(tokens.get(at + 1).text().toLowerCase(Locale.ROOT))) {
            t = tokens.get(++at);
            message = message.replace("found 'not'", "found 'like'");
        }
        String w = t.text().toLowerCase(Locale.ROOT);
        switch (w) {
            case "orderby", "groupby" -> {
                return new QueryException(new Diagnostic(t.start(), t.end(), message, List.of(w.substring(0, 5) + " by")));
            }
            case "select" -> {
                return new QueryException(new Diagnostic(t.start(), t.end(), message + " (bufq picks columns with show)", List.of("show")));
            }
            case "like", "ilike" -> {
                // FIELD [not] like 'pattern'
                Token before = at > 0 ? tokens.get(at - 1) : null;
                boolean not = before != null && before.isKeyword("not");
                Token field = not && at > 1 ? tokens.get(at - 2) : before;
                Token pattern = at + 1 < tokens.size() ? tokens.get(at + 1) : null;
                if (field == null || field.kind() != TokenKind.IDENT || pattern == null || pattern.kind() != TokenKind.STRING) {
                    return new QueryException(new Diagnostic(t.start(), t.end(), message
                            + " (bufq matches text with a regular expression: label ~ 'gather')"));
                }
                String text = Lexer.decodeString(pattern.text());
                String form = field.text() + (not ? " !~ '" : " ~ '") + regexOf(text == null ? "" : text) + "'";
                return new QueryException(new Diagnostic(t.start(), pattern.end(),
                        message + " (bufq matches text with a regular expression)", List.of(form)));
            }
            case "offset" -> {
                Token before = at > 0 ? tokens.get(at - 1) : null;
                Token n = at + 1 < tokens.size() ? tokens.get(at + 1) : null;
                String more = "";
                if (before != null && before.kind() == TokenKind.NUMBER && n != null && n.kind() == TokenKind.NUMBER) {
                    try {
                        long total = Long.parseLong(before.text()) + Long.parseLong(n.text());
                        more = ": 'limit " + total + "' and skip the first " + n.text() + " rows";
                    } catch (NumberFormatException e) {
                        // a size or a decimal: no figure to offer
                    }
                }
                return new QueryException(new Diagnostic(t.start(), n != null && n.kind() == TokenKind.NUMBER ? n.end() : t.end(),
                        message + "; bufq has no OFFSET (offset is a value's byte offset)" + more));
            }
            default -> {
                return null;
            }
        }
    }

    /** The error for {@code count(*)} and the like: bufq counts rows with {@code count()}. */
    static QueryException starArgument(Token call, Token star) {
        return new QueryException(new Diagnostic(star.start(), star.end(),
                "unexpected '*': " + call.text() + "() counts rows without an argument", List.of(call.text() + "()")));
    }
}
