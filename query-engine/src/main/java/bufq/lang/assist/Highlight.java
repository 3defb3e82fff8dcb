package bufq.lang.assist;

import bufq.eval.Catalog;
import bufq.eval.Query;
import bufq.lang.Diagnostic;
import bufq.lang.Lexer;
import bufq.lang.Parser;
import bufq.lang.QueryException;
import bufq.lang.Token;
import bufq.lang.TokenKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Styles for a query as typed, for the REPL's highlighter: one span per token, plus the first
 * error (from compiling against the catalog) so the shell can mark it in red.
 */
public final class Highlight {
    private Highlight() {}

    /** INSTRUCTION: a name standing for a step ({@code live at NAME}, {@code during A..B}); NAME: an alias. */
    public enum Style { KEYWORD, ENTITY, FIELD, FUNCTION, NAME, INSTRUCTION, NUMBER, STRING, OPERATOR, PLAIN, ERROR }

    public record Span(int start, int end, Style style) {}

    /** @param error the compile error, or null when the query compiles (or is still incomplete: see {@code incomplete}) */
    public record Result(List<Span> spans, Diagnostic error, boolean incomplete) {
        public Result { spans = List.copyOf(spans); }
    }

    /** Never throws. Unknown names are PLAIN; the error, if any, says why. */
    public static Result of(String text, Catalog catalog) {
        String src = text == null ? "" : text;
        List<Token> ts = Lexer.lex(src);
        List<Span> out = new ArrayList<>(ts.size());
        String entity = null;
        for (int i = 0; i < ts.size(); i++) {
            Token t = ts.get(i);
            if (t.kind() == TokenKind.EOF) break;
            Token prev = i > 0 ? ts.get(i - 1) : null;
            Token next = ts.get(Math.min(i + 1, ts.size() - 1));
            Style s = switch (t.kind()) {
                case KEYWORD -> Style.KEYWORD;
                case NUMBER -> Style.NUMBER;
                case STRING -> Style.STRING;
                case ERROR -> Style.ERROR;
                case OPERATOR, DOTDOT, LPAREN, RPAREN, COMMA -> Style.OPERATOR;
                case IDENT -> {
                    if (i == 0) {
                        boolean known = catalog.entities().contains(t.text().toLowerCase(Locale.ROOT));
                        if (known) entity = t.text();
                        yield known ? Style.ENTITY : Style.PLAIN;
                    }
                    if (next.kind() == TokenKind.LPAREN) yield Style.FUNCTION;
                    if (prev != null && (prev.isKeyword("at") || prev.isKeyword("during") || prev.kind() == TokenKind.DOTDOT))
                        yield Style.INSTRUCTION;
                    if (prev != null && prev.isKeyword("as")) yield Style.NAME;
                    yield entity != null && catalog.field(entity, t.text()) != null ? Style.FIELD : Style.PLAIN;
                }
                default -> Style.PLAIN;
            };
            out.add(new Span(t.start(), t.end(), s));
        }
        Diagnostic error = null;
        boolean incomplete = false;
        if (!src.isBlank()) {
            try {
                Query.compile(src, catalog);
            } catch (QueryException e) {
                incomplete = Parser.needsMore(src);
                error = e.diagnostic();
            }
        }
        return new Result(out, error, incomplete);
    }
}
