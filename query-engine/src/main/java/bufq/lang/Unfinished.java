package bufq.lang;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The one rule for a query that more input could complete: an open parenthesis or string, or a last
 * token after which a query cannot end (an operator, {@code ,}, {@code ..}, {@code (}, or a keyword
 * such as {@code and}, {@code where}, {@code by}). The REPL asks for a continuation line, a script
 * joins the next line and the highlighter calls the query unfinished rather than wrong, all by it.
 * Fed a line at a time ({@link #line}), each line is read once, so a string open over 100,000 lines
 * is linear, not quadratic.
 */
public final class Unfinished {
    /** Keywords after which a query cannot end. */
    private static final Set<String> CONTINUES = Set.of("where", "and", "or", "not", "by", "show", "order", "group",
            "in", "at", "during", "live", "limit", "is", "as");

    private int depth;
    private boolean string, lastContinues;
    private char quote;   // of the open string

    /** Whether {@code text}, a whole query so far, is unfinished; a text past the length bound never is (it is refused at once). */
    public static boolean query(String text) {
        if (text == null || text.isBlank() || text.length() > Parser.MAX_LENGTH) return false;
        Unfinished u = new Unfinished();
        u.add(Lexer.lex(text));
        return u.more();
    }

    /**
     * The next line of a query: inside an open string only that line is scanned for its closing
     * quote (as the lexer does, a backslash escaping the next character), then the rest is lexed.
     */
    public void line(String t) {
        if (!string) {
            add(Lexer.lex(t));
            return;
        }
        int i = 0;
        while (i < t.length() && t.charAt(i) != quote) i += t.charAt(i) == '\\' ? 2 : 1;
        if (i >= t.length()) return;   // still inside the string
        string = false;
        lastContinues = false;
        add(Lexer.lex(t.substring(i + 1)));
    }

    /** Whether the lines so far leave the query open. */
    public boolean more() { return string || depth > 0 || lastContinues; }

    private void add(List<Token> tokens) {
        for (Token t : tokens) {
            if (t.kind() == TokenKind.LPAREN) depth++;
            else if (t.kind() == TokenKind.RPAREN) depth--;
            else if (Lexer.isUnterminatedString(t)) {
                string = true;
                quote = t.text().charAt(0);
            }
        }
        if (tokens.size() >= 2) lastContinues = continues(tokens.get(tokens.size() - 2));
    }

    private static boolean continues(Token last) {
        return switch (last.kind()) {
            case OPERATOR, COMMA, DOTDOT, LPAREN -> true;
            case KEYWORD -> CONTINUES.contains(last.text().toLowerCase(Locale.ROOT));
            default -> false;
        };
    }
}
