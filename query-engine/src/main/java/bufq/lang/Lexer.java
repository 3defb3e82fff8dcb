package bufq.lang;

import bufq.units.Units;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Splits a query into tokens. Never throws: unreadable input becomes {@link TokenKind#ERROR}
 * tokens, so the highlighter and completer can lex half-typed text; {@link #problem(Token)} says
 * what is wrong with one.
 */
public final class Lexer {
    /** Reserved words, matched case-insensitively. */
    public static final Set<String> KEYWORDS = Set.of("where", "group", "by", "show", "order", "asc", "desc",
            "limit", "and", "or", "not", "in", "is", "null", "live", "at", "during", "peak", "claimed_peak", "as", "true", "false");

    private final String src;
    private int pos;
    private final List<Token> out = new ArrayList<>();

    private Lexer(String src) { this.src = src == null ? "" : src; }

    /** The tokens of {@code text}, ending with one {@link TokenKind#EOF}. */
    public static List<Token> lex(String text) {
        Lexer l = new Lexer(text);
        l.run();
        return l.out;
    }

    private void run() {
        int n = src.length();
        while (true) {
            while (pos < n && Character.isWhitespace(src.charAt(pos))) pos++;
            if (pos >= n) break;
            int start = pos;
            char c = src.charAt(pos);
            if (isCommentAt(src, pos)) { skipComment(); continue; }
            if (isIdentStart(c)) ident(start);
            else if (isDigit(c) || (c == '-' && pos + 1 < n && isDigit(src.charAt(pos + 1)))) number(start);
            else if (c == '"' || c == '\'') string(start, c);
            else symbol(start, c);
        }
        out.add(new Token(TokenKind.EOF, n, n, ""));
    }

    private void ident(int start) {
        int n = src.length();
        pos++;
        while (pos < n) {
            char c = src.charAt(pos);
            if (c == '.') {
                // a dot belongs to a name (fusion.2) unless it starts the '..' of a range
                if (pos + 1 < n && isIdentPart(src.charAt(pos + 1)) && src.charAt(pos + 1) != '.') { pos++; continue; }
                break;
            }
            if (!isIdentPart(c)) break;
            pos++;
        }
        String text = src.substring(start, pos);
        boolean kw = KEYWORDS.contains(text.toLowerCase(Locale.ROOT));
        add(kw ? TokenKind.KEYWORD : TokenKind.IDENT, start);
    }

    private void number(int start) {
        int n = src.length();
        pos++;
        while (pos < n && isDigit(src.charAt(pos))) pos++;
        if (pos + 1 < n && src.charAt(pos) == '.' && isDigit(src.charAt(pos + 1))) {
            pos++;
            while (pos < n && isDigit(src.charAt(pos))) pos++;
        }
        int unitStart = pos;
        while (pos < n && (Character.isLetter(src.charAt(pos)) || src.charAt(pos) == '_')) pos++;
        // a number glued to name characters (12abc, 4KiB.x) is one bad token, not two
        while (pos < n && (isIdentPart(src.charAt(pos)) && src.charAt(pos) != '.')) pos++;
        String unit = src.substring(unitStart, pos);
        boolean ok = unit.isEmpty() || Units.factor(unit) != null;
        add(ok ? TokenKind.NUMBER : TokenKind.ERROR, start);
    }

    // A string is STRING when its escapes are those of a regular expression (decodeRegex); the
    // parser asks for plain-string escapes (decodeString) where the string is not a pattern.
    private void string(int start, char quote) {
        int n = src.length();
        pos++;
        while (pos < n) {
            char c = src.charAt(pos);
            if (c == '\\') { pos = Math.min(n, pos + 2); continue; }
            pos++;
            if (c == quote) {
                add(decodeRegex(src.substring(start, pos)) == null ? TokenKind.ERROR : TokenKind.STRING, start);
                return;
            }
        }
        add(TokenKind.ERROR, start);
    }

    /**
     * Whether a comment starts at {@code i}: {@code --} (as in SQL) or {@code #} at the start or
     * after a blank (so {@code jit_f#2} stays one word). A comment runs to the end of the line.
     */
    static boolean isCommentAt(String s, int i) {
        char c = s.charAt(i);
        if (c == '-') return i + 1 < s.length() && s.charAt(i + 1) == '-';
        return c == '#' && (i == 0 || Character.isWhitespace(s.charAt(i - 1)));
    }

    private void skipComment() {
        while (pos < src.length() && src.charAt(pos) != '\n') pos++;
    }

    /**
     * Where a comment starts in one line of a query, outside strings, or -1: a script joins a
     * query's lines, so each line's comment is cut first.
     */
    public static int commentStart(String line) {
        int from = 0;
        for (Token t : lex(line)) {
            for (int i = from; i < t.start(); i++) if (isCommentAt(line, i)) return i;
            from = t.end();
        }
        return -1;
    }

    private void symbol(int start, char c) {
        char d = pos + 1 < src.length() ? src.charAt(pos + 1) : '\0';
        switch (c) {
            case '(' -> { pos++; add(TokenKind.LPAREN, start); }
            case ')' -> { pos++; add(TokenKind.RPAREN, start); }
            case ',' -> { pos++; add(TokenKind.COMMA, start); }
            case ';' -> { pos++; add(TokenKind.SEMICOLON, start); }
            case '~' -> { pos++; add(TokenKind.OPERATOR, start); }
            case '*', '/', '+' -> { pos++; add(TokenKind.ARITH, start); }
            case '.' -> {
                pos += d == '.' ? 2 : 1;
                add(d == '.' ? TokenKind.DOTDOT : TokenKind.ERROR, start);
            }
            case '=' -> { pos += d == '=' ? 2 : 1; add(TokenKind.OPERATOR, start); }
            case '!' -> {
                pos += (d == '=' || d == '~') ? 2 : 1;
                add(pos - start == 2 ? TokenKind.OPERATOR : TokenKind.ERROR, start);
            }
            case '<' -> { pos += (d == '=' || d == '>') ? 2 : 1; add(TokenKind.OPERATOR, start); }
            case '>' -> { pos += d == '=' ? 2 : 1; add(TokenKind.OPERATOR, start); }
            default -> {
                pos += Character.charCount(src.codePointAt(pos));
                add(TokenKind.ERROR, start);
            }
        }
    }

    private void add(TokenKind kind, int start) {
        out.add(new Token(kind, start, pos, src.substring(start, pos)));
    }

    static boolean isIdentStart(char c) { return Character.isLetter(c) || c == '_' || c == '%'; }
    static boolean isIdentPart(char c) { return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.'; }
    private static boolean isDigit(char c) { return c >= '0' && c <= '9'; }

    /** Splits a NUMBER token into its numeric part and unit ({@code ""} when none). */
    public static String[] splitNumber(String text) {
        int i = text.length();
        while (i > 0 && Character.isLetter(text.charAt(i - 1))) i--;
        return new String[] {text.substring(0, i), text.substring(i)};
    }

    /** The value of a NUMBER token as an exact decimal in bytes/units, or null if unreadable. */
    public static BigDecimal numberValue(String text) {
        String[] p = splitNumber(text);
        Long f = p[1].isEmpty() ? Long.valueOf(1) : Units.factor(p[1]);
        if (f == null || p[0].isEmpty()) return null;
        try {
            return new BigDecimal(p[0]).multiply(BigDecimal.valueOf(f));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The value of a quoted string ({@code "a\"b"} -> {@code a"b}, {@code 'it\'s'} -> {@code it's}),
     * or null when malformed or holding an escape other than {@code \" \' \\ \/ \n \t \r \}{@code uXXXX}.
     */
    public static String decodeString(String quoted) {
        return decode(quoted, false);
    }

    /**
     * The value of a quoted regular expression (after {@code ~} or {@code !~}): as
     * {@link #decodeString}, but a backslash before any other character is kept with it, so
     * {@code "^jit\(step\)"} reaches the regex engine as {@code ^jit\(step\)}. Null when malformed.
     */
    public static String decodeRegex(String quoted) {
        return decode(quoted, true);
    }

    private static String decode(String quoted, boolean regex) {
        if (quoted.length() < 2) return null;
        char q = quoted.charAt(0);
        if ((q != '"' && q != '\'') || quoted.charAt(quoted.length() - 1) != q) return null;
        StringBuilder b = new StringBuilder();
        int end = quoted.length() - 1;
        for (int i = 1; i < end; i++) {
            char c = quoted.charAt(i);
            if (c != '\\') { b.append(c); continue; }
            if (++i >= end) return null;
            char e = quoted.charAt(i);
            switch (e) {
                case '"', '\'', '\\', '/' -> b.append(e);
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'u' -> {
                    if (i + 4 >= end) return null;
                    try {
                        b.append((char) Integer.parseInt(quoted.substring(i + 1, i + 5), 16));
                    } catch (NumberFormatException | StringIndexOutOfBoundsException x) {
                        return null;
                    }
                    i += 4;
                }
                default -> {
                    if (!regex) return null;
                    b.append('\\').append(e);
                }
            }
        }
        return b.toString();
    }

    /** Why an ERROR token is bad, lowercase, for the diagnostic. */
    public static String problem(Token t) {
        String s = t.text();
        if (isString(t)) {
            if (!terminated(s)) return "unterminated string; expected a closing '" + s.charAt(0) + "'";
            return BAD_ESCAPE;
        }
        if (!s.isEmpty() && (Character.isDigit(s.charAt(0)) || s.charAt(0) == '-')) {
            String[] p = splitNumber(s);
            if (!p[1].isEmpty() && p[0].matches("-?[0-9]+(\\.[0-9]+)?"))
                return "unknown size unit '" + p[1] + "'; expected one of " + Units.symbols() + " (help units)";
            return "bad number '" + s + "'";
        }
        if (s.equals(".")) return "unexpected '.'; expected '..' between two times";
        if (s.equals("!")) return "unexpected '!'; expected '!=' or '!~' (or 'not')";
        return "unexpected character '" + s + "'";
    }

    /** What a string with an escape {@link #decodeString} refuses is told. */
    public static final String BAD_ESCAPE = "bad escape in string; expected one of \\\" \\' \\\\ \\n \\t \\r \\/ \\uXXXX"
            + " (other escapes such as \\( are for regular expressions after ~)";

    /** Whether {@code t} is a string or the start of one (an ERROR token that opens with a quote). */
    public static boolean isString(Token t) {
        return !t.text().isEmpty() && (t.text().charAt(0) == '"' || t.text().charAt(0) == '\'');
    }

    /** Whether {@code t} is a string whose closing quote is missing. */
    public static boolean isUnterminatedString(Token t) {
        return t.kind() == TokenKind.ERROR && isString(t) && !terminated(t.text());
    }

    private static boolean terminated(String s) {
        char q = s.charAt(0);
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') { i++; continue; }
            if (c == q) return i == s.length() - 1;
        }
        return false;
    }
}
