package bufq.lang;

import java.util.List;

/**
 * A position in a query's tokens, with the parser's small helpers ({@code peek}, {@code check},
 * {@code advance}, {@code match}, {@code expect}) and its one {@link #error}, which returns the
 * exception so call sites read {@code throw error(peek(), "expected ...")}. {@link Parser} keeps the
 * grammar rules; this keeps the walk and the wording of "expected X but found Y".
 */
abstract class TokenCursor {
    final String src;
    final List<Token> tokens;
    int current;

    TokenCursor(String src) {
        this.src = src;
        this.tokens = Lexer.lex(src);
    }

    Token peek() { return tokens.get(current); }
    Token peekAt(int k) { return tokens.get(Math.min(current + k, tokens.size() - 1)); }
    boolean check(TokenKind k) { return peek().kind() == k; }

    Token advance() {
        Token t = peek();
        if (t.kind() != TokenKind.EOF) current++;
        return t;
    }

    boolean match(TokenKind k) {
        if (!check(k)) return false;
        advance();
        return true;
    }

    boolean matchKeyword(String k) {
        if (!peek().isKeyword(k)) return false;
        advance();
        return true;
    }

    Token expect(TokenKind k, String expected) throws QueryException {
        if (!check(k)) throw error(peek(), expected);
        return advance();
    }

    void expectKeyword(String k, String where) throws QueryException {
        if (!matchKeyword(k)) throw error(peek(), "expected '" + k + "' " + where);
    }

    /** The exception for an unexpected token; call sites {@code throw} it. Bad input explains itself. */
    QueryException error(Token t, String expected) {
        if (t.kind() == TokenKind.ERROR) return new QueryException(t.start(), t.end(), Lexer.problem(t));
        if (t.kind() == TokenKind.ARITH) {
            return new QueryException(t.start(), t.end(), "unexpected '" + t.text() + "': arithmetic works only in 'order by' "
                    + "(order by size * idle_steps desc); elsewhere name a field");
        }
        if (t.kind() == TokenKind.EOF && current > 0) {
            // point just after the last token, not at trailing blank lines
            int at = tokens.get(current - 1).end();
            return new QueryException(at, at, expected + " but found " + describe(t));
        }
        return new QueryException(t.start(), t.end(), expected + " but found " + describe(t));
    }

    static String describe(Token t) {
        return switch (t.kind()) {
            case EOF -> "end of query";
            case STRING -> "string " + clip(t.text());
            case NUMBER -> "number " + t.text();
            default -> "'" + clip(t.text()) + "'";
        };
    }

    static String clip(String s) { return s.length() > 40 ? s.substring(0, 37) + "..." : s; }
}
