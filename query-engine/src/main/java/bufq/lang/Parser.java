package bufq.lang;

import bufq.lang.Ast.*;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static bufq.lang.Literals.number;
import static bufq.lang.Literals.quote;
import static bufq.lang.Literals.string;

/**
 * Recursive-descent parser: tokens to an {@link Ast.Query}. Methods are named after the grammar
 * rules in {@code GRAMMAR.md}; each states its rule. Knows no entities or fields (the checker does).
 * The token helpers ({@code peek}, {@code match}, {@code expect}, the {@code error} that returns
 * the exception) are {@link TokenCursor}'s; a literal token's value is {@link Literals}'.
 */
public final class Parser extends TokenCursor {
    /** Deepest nesting of parentheses and {@code not} accepted, far below what the Java stack holds. */
    public static final int MAX_DEPTH = 64;
    /**
     * Longest query accepted, in characters, and most conditions in one: a 74,000-term query took
     * seconds to lex, parse and plan (several times over in the shell) before the time limit began.
     * Parsing and planning a query within both takes well under a second.
     */
    public static final int MAX_LENGTH = 200_000, MAX_CONDITIONS = 10_000;
    private static final List<String> CLAUSES = List.of("where", "group", "show", "order", "limit");

    private int depth;
    private int conditions;

    private Parser(String src) {
        super(src == null ? "" : src);
    }

    /** Parses a whole query; the first problem becomes the exception's diagnostic. */
    public static Query parse(String text) throws QueryException {
        if (text != null && text.length() > MAX_LENGTH) throw tooLong(text);
        return new Parser(text).query();
    }

    /**
     * True when {@code text} is an unfinished query that more input could complete (trailing
     * {@code and}, open parenthesis, open string, {@code where} with nothing after it): the REPL
     * then asks for a continuation line instead of reporting an error. The rule is {@link Unfinished}'s.
     */
    public static boolean needsMore(String text) { return Unfinished.query(text); }

    // query = IDENT { clause } [ ";" ] EOF
    private Query query() throws QueryException {
        Token first = peek();
        if (first.kind() != TokenKind.IDENT) {
            throw error(first, "expected an entity (values, allocations, instructions or steps)");
        }
        advance();
        Name entity = new Name(first.text(), first.start(), first.end());
        Expr where = null;
        List<Name> groupBy = null;
        List<Item> show = null;
        List<OrderKey> orderBy = null;
        Limit limit = null;
        String last = "";
        while (!check(TokenKind.EOF)) {
            Token t = peek();
            if (match(TokenKind.SEMICOLON)) {
                // a statement's end, as in SQL shells; one statement per query
                if (!check(TokenKind.EOF)) throw error(peek(), "expected nothing after ';' (one query at a time)");
                break;
            }
            String kw = t.kind() == TokenKind.KEYWORD ? t.text().toLowerCase(Locale.ROOT) : "";
            switch (kw) {
                case "where" -> { once(where, t); advance(); where = orExpr(); }
                case "group" -> { once(groupBy, t); advance(); expectKeyword("by", "after 'group'"); groupBy = groupKeys(); }
                case "show" -> { once(show, t); advance(); show = items(); }
                case "order" -> { once(orderBy, t); advance(); expectKeyword("by", "after 'order'"); orderBy = orderKeys(); }
                case "limit" -> { once(limit, t); advance(); limit = limit(); }
                default -> {
                    String clauses = "a clause (where, group by, show, order by, limit)";
                    String what = switch (last) {
                        case "where" -> "expected 'and', 'or' or " + clauses;
                        case "order" -> "expected 'asc', 'desc', ',' or " + clauses;
                        case "show" -> "expected 'as', ',' or " + clauses;
                        case "group" -> "expected ',' or " + clauses;
                        default -> "expected " + clauses;
                    };
                    QueryException e = error(t, what);
                    QueryException habit = SqlHabits.clause(src, tokens, current, e.diagnostic().message());
                    if (habit != null) throw habit;
                    if (t.kind() == TokenKind.IDENT) {
                        List<String> near = NearNames.near(t.text(), CLAUSES);
                        if (!near.isEmpty()) e = new QueryException(new Diagnostic(t.start(), t.end(),
                                e.diagnostic().message(), near));
                    }
                    throw e;
                }
            }
            last = kw;
        }
        return new Query(entity, where, orEmpty(groupBy), orEmpty(show), orEmpty(orderBy), limit);
    }

    private static <T> List<T> orEmpty(List<T> l) { return l == null ? List.of() : l; }

    private void once(Object seen, Token t) throws QueryException {
        if (seen != null) throw new QueryException(t.start(), t.end(), "'" + t.text() + "' may appear only once");
    }

    // orExpr = andExpr { "or" andExpr }
    private Expr orExpr() throws QueryException {
        List<Expr> terms = new ArrayList<>();
        terms.add(andExpr());
        while (matchKeyword("or")) terms.add(andExpr());
        return terms.size() == 1 ? terms.get(0) : new Or(terms);
    }

    // andExpr = notExpr { "and" notExpr }
    private Expr andExpr() throws QueryException {
        List<Expr> terms = new ArrayList<>();
        terms.add(notExpr());
        while (matchKeyword("and")) terms.add(notExpr());
        return terms.size() == 1 ? terms.get(0) : new And(terms);
    }

    // notExpr = "not" notExpr | predicate
    private Expr notExpr() throws QueryException {
        Token t = peek();
        if (!matchKeyword("not")) return predicate();
        enter(t);
        Expr e = new Not(notExpr(), t.start());
        depth--;
        return e;
    }

    // predicate = "live" liveness | "(" orExpr ")" | operand [ comparison ]
    private Expr predicate() throws QueryException {
        Token t = peek();
        if (++conditions > MAX_CONDITIONS) {
            throw new QueryException(t.start(), t.end(), "too many conditions in one query (more than " + MAX_CONDITIONS
                    + "); split it, or list values with 'in (...)'");
        }
        if (t.isKeyword("live")) { advance(); return liveness(t); }
        if (match(TokenKind.LPAREN)) {
            enter(t);
            Expr e = orExpr();
            expect(TokenKind.RPAREN, "expected ')' to close the '(' at position " + (t.start() + 1));
            depth--;
            return e;
        }
        Expr left = operand("expected a condition (a field, 'live', 'not' or '(')");
        return comparison(left);
    }

    // comparison = OP operand | ("~" | "!~") STRING | ["not"] "in" "(" operand {"," operand} ")" | "is" ["not"] "null"
    private Expr comparison(Expr left) throws QueryException {
        Token t = peek();
        if (t.kind() == TokenKind.OPERATOR) {
            advance();
            if (t.text().equals("~") || t.text().equals("!~")) {
                Token p = peek();
                if (p.kind() != TokenKind.STRING) throw error(p, "expected a quoted regular expression after '" + t.text() + "'");
                advance();
                return new Match(left, new Literal(Lexer.decodeRegex(p.text()), p.start(), p.end()),
                        t.text().equals("!~"), t.start(), t.end());
            }
            String op = switch (t.text()) { case "==" -> "="; case "<>" -> "!="; default -> t.text(); };
            Expr right = value("expected a value or a field after '" + t.text() + "'");
            return new Compare(op, left, right, t.start(), t.end());
        }
        boolean negated = false;
        if (t.isKeyword("not") && peekAt(1).isKeyword("in")) { advance(); negated = true; }
        if (matchKeyword("in")) {
            expect(TokenKind.LPAREN, "expected '(' after 'in'");
            List<Expr> items = new ArrayList<>();
            do {
                items.add(value("expected a value in the 'in' list"));
            } while (match(TokenKind.COMMA));
            Token close = expect(TokenKind.RPAREN, "expected ',' or ')' in the 'in' list");
            return new In(left, items, negated, t.start(), close.end());
        }
        if (matchKeyword("is")) {
            boolean not = matchKeyword("not");
            Token n = peek();
            if (!n.isKeyword("null")) throw error(n, "expected 'null' after '" + (not ? "is not" : "is") + "'");
            advance();
            return new IsNull(left, not, n.end());
        }
        return left;
    }

    // value = operand, where text glued to a name (jit(step)/div, a/b) asks to be quoted
    private Expr value(String expected) throws QueryException {
        Token t = peek();
        Token next = peekAt(1);
        boolean glued = next.start() == t.end() && switch (next.kind()) {
            case EOF, RPAREN, COMMA, SEMICOLON -> false;
            default -> true;
        };
        if (t.kind() == TokenKind.IDENT && glued) {
            int end = wordEnd(t.start());
            String word = src.substring(t.start(), end);
            throw new QueryException(t.start(), end, "unquoted text '" + clip(word) + "'; to compare with a string, quote it: "
                    + quote(word));
        }
        return operand(expected);
    }

    /** Where the unquoted text starting at {@code from} ends: at a blank, or a ',', ')' or ';' outside its own parentheses. */
    private int wordEnd(int from) {
        int depth = 0;
        int i = from;
        for (; i < src.length(); i++) {
            char c = src.charAt(i);
            if (Character.isWhitespace(c) || c == ';' || (depth == 0 && (c == ',' || c == ')'))) break;
            if (c == '(') depth++;
            else if (c == ')') depth--;
        }
        return i;
    }

    // operand = IDENT | NUMBER | STRING | "true" | "false"
    private Expr operand(String expected) throws QueryException {
        Token t = peek();
        switch (t.kind()) {
            case IDENT -> {
                advance();
                if (check(TokenKind.LPAREN)) {
                    throw new QueryException(t.start(), peek().end(),
                            "function '" + t.text() + "' is only allowed in show and order by, not in conditions");
                }
                return new Field(new Name(t.text(), t.start(), t.end()));
            }
            case NUMBER -> { advance(); return new Literal(number(t), t.start(), t.end()); }
            case STRING -> { advance(); return new Literal(string(t), t.start(), t.end()); }
            case KEYWORD -> {
                if (t.isKeyword("true") || t.isKeyword("false")) {
                    advance();
                    return new Literal(t.text().equalsIgnoreCase("true"), t.start(), t.end());
                }
                if (t.isKeyword("null")) {
                    throw new QueryException(t.start(), t.end(),
                            expected + " but found 'null'; use 'is null' to test for a missing value");
                }
                throw error(t, expected);
            }
            default -> throw error(t, expected);
        }
    }

    // liveness = "at" time | "during" time ".." time
    private Expr liveness(Token live) throws QueryException {
        Token t = peek();
        if (matchKeyword("at")) {
            Time at = time();
            return new Live(at, at, false, live.start(), at.end());
        }
        if (matchKeyword("during")) {
            Time from = time();
            expect(TokenKind.DOTDOT, "expected '..' between the two times of 'live during'");
            Time to = time();
            return new Live(from, to, true, live.start(), to.end());
        }
        throw error(t, "expected 'at' or 'during' after 'live'");
    }

    // time = INTEGER | "peak" [ "(" INTEGER { "," peakOption } ")" ] | "claimed_peak" | IDENT | STRING
    private Time time() throws QueryException {
        Token t = peek();
        String expected = "expected a step number, 'peak', 'claimed_peak' or an instruction name";
        switch (t.kind()) {
            case NUMBER -> {
                Object n = number(t);
                if (!(n instanceof Long l) || l < 0 || !Lexer.splitNumber(t.text())[1].isEmpty() || l > Integer.MAX_VALUE)
                    throw new QueryException(t.start(), t.end(), expected + " but found '" + t.text() + "'");
                advance();
                return new StepNumber(l, t.start(), t.end());
            }
            case IDENT -> { advance(); return new Named(t.text().startsWith("%") ? t.text().substring(1) : t.text(), t.start(), t.end()); }
            case STRING -> { advance(); return new Named(string(t), t.start(), t.end()); }
            case KEYWORD -> {
                if (t.isKeyword("peak")) {
                    advance();
                    return match(TokenKind.LPAREN) ? rankedPeak(t) : new Peak(t.start(), t.end());
                }
                if (t.isKeyword("claimed_peak")) { advance(); return new ClaimedPeak(t.start(), t.end()); }
                throw error(t, expected);
            }
            default -> throw error(t, expected);
        }
    }

    // "peak" "(" INTEGER { "," peakOption } ")", after the "(": the N-th prominent peak, counted
    // from 1, as 'peaks' with the same options numbers them
    private Time rankedPeak(Token peak) throws QueryException {
        Token n = peek();
        Object v = n.kind() == TokenKind.NUMBER ? number(n) : null;
        if (!(v instanceof Long rank) || rank < 1 || !Lexer.splitNumber(n.text())[1].isEmpty())
            throw error(n, "expected a peak number from 1 (peak(1) is the peak) after 'peak('");
        advance();
        Long color = null;
        Double share = null;
        while (match(TokenKind.COMMA)) {
            Token o = peek();
            String word = o.kind() == TokenKind.IDENT ? o.text().toLowerCase(Locale.ROOT) : "";
            if (word.equals("color") && color == null) { advance(); color = peakColor(); }
            else if (word.equals("min_share") && share == null) { advance(); share = minShare(); }
            else throw error(o, "expected 'color N' or 'min_share P' (each once) after ',' in 'peak(N, ...)'");
        }
        Token close = expect(TokenKind.RPAREN, "expected ')' or ', color N' or ', min_share P' after the peak number");
        return new RankedPeak(rank, color, share, peak.start(), close.end());
    }

    // peakOption = "color" INTEGER | "min_share" NUMBER [ "%" ]; this is the INTEGER after "color"
    private Long peakColor() throws QueryException {
        Token n = peek();
        Object v = n.kind() == TokenKind.NUMBER ? number(n) : null;
        if (!(v instanceof Long c) || !Lexer.splitNumber(n.text())[1].isEmpty() || c > Integer.MAX_VALUE)
            throw error(n, "expected a colour number after 'color'");
        advance();
        return c;
    }

    // the NUMBER [ "%" ] after "min_share": a percentage (5%) or a fraction (0.05), from 0 to 1
    private Double minShare() throws QueryException {
        Token n = peek();
        Object v = n.kind() == TokenKind.NUMBER && Lexer.splitNumber(n.text())[1].isEmpty() ? number(n) : null;
        String expected = "expected a percentage from 0% to 100% (5%) or a fraction from 0 to 1 (0.05) after 'min_share'";
        if (!(v instanceof Number num)) throw error(n, expected);
        advance();
        double share = num.doubleValue();
        Token pct = peek();
        if (pct.kind() == TokenKind.IDENT && pct.text().equals("%") && pct.start() == n.end()) {
            advance();
            share /= 100;
        }
        if (!(share >= 0 && share <= 1)) throw new QueryException(n.start(), pct.text().equals("%") ? pct.end() : n.end(), expected);
        return share;
    }

    // groupKeys = IDENT { "," IDENT }
    private List<Name> groupKeys() throws QueryException {
        List<Name> out = new ArrayList<>();
        do {
            Token t = expect(TokenKind.IDENT, "expected a field to group by");
            out.add(new Name(t.text(), t.start(), t.end()));
        } while (match(TokenKind.COMMA));
        return out;
    }

    // items = item { "," item };  item = (call | IDENT) ["as" IDENT]
    private List<Item> items() throws QueryException {
        List<Item> out = new ArrayList<>();
        do {
            Expr e = fieldOrCall("expected a field or an aggregate (count(), sum(f), min(f), max(f), avg(f)) to show");
            Name alias = null;
            if (matchKeyword("as")) {
                Token a = peek();
                if (a.kind() == TokenKind.KEYWORD) throw error(a, "expected a name after 'as' ('" + a.text() + "' is a reserved word)");
                a = expect(TokenKind.IDENT, "expected a name after 'as'");
                alias = new Name(a.text(), a.start(), a.end());
            }
            out.add(new Item(e, alias));
        } while (match(TokenKind.COMMA));
        return out;
    }

    // orderKeys = key { "," key };  key = (sum | call | IDENT) ["asc" | "desc"]
    private List<OrderKey> orderKeys() throws QueryException {
        List<OrderKey> out = new ArrayList<>();
        do {
            Expr e = sum();
            boolean desc = false;
            int end = e.end();
            Token d = peek();
            if (matchKeyword("desc")) { desc = true; end = d.end(); }
            else if (matchKeyword("asc")) end = d.end();
            out.add(new OrderKey(e, desc, e.start(), end));
        } while (match(TokenKind.COMMA));
        return out;
    }

    // sum = product { "+" product }
    private Expr sum() throws QueryException {
        Expr left = product();
        while (check(TokenKind.ARITH) && peek().text().equals("+")) {
            advance();
            left = new Arith("+", left, product());
        }
        return left;
    }

    // product = factor { ( "*" | "/" ) factor }
    private Expr product() throws QueryException {
        Expr left = factor();
        while (check(TokenKind.ARITH) && !peek().text().equals("+")) {
            String op = advance().text();
            left = new Arith(op, left, factor());
        }
        return left;
    }

    // factor = call | IDENT | NUMBER
    private Expr factor() throws QueryException {
        Token t = peek();
        if (t.kind() == TokenKind.NUMBER) {
            advance();
            return new Literal(number(t), t.start(), t.end());
        }
        return fieldOrCall("expected a field, alias, aggregate or number to order by");
    }

    // call = IDENT "(" [ IDENT { "," IDENT } ] ")"
    private Expr fieldOrCall(String expected) throws QueryException {
        Token t = expect(TokenKind.IDENT, expected);
        Name name = new Name(t.text(), t.start(), t.end());
        if (!match(TokenKind.LPAREN)) return new Field(name);
        List<Expr> args = new ArrayList<>();
        if (!check(TokenKind.RPAREN)) {
            if (check(TokenKind.ARITH) && peek().text().equals("*")) throw SqlHabits.starArgument(t, peek());
            do {
                Token a = expect(TokenKind.IDENT, "expected a field name as the argument of " + t.text() + "()");
                if (check(TokenKind.LPAREN)) throw error(peek(), "expected ',' or ')'; aggregates do not nest");
                args.add(new Field(new Name(a.text(), a.start(), a.end())));
            } while (match(TokenKind.COMMA));
        }
        Token close = expect(TokenKind.RPAREN, "expected ')' to close " + t.text() + "(");
        return new Call(name, args, close.end());
    }

    // limit = INTEGER
    private Limit limit() throws QueryException {
        Token t = peek();
        String expected = "expected a whole number of rows after 'limit'";
        if (t.kind() != TokenKind.NUMBER) throw error(t, expected);
        Object n = number(t);
        if (!(n instanceof Long l) || l < 0 || !Lexer.splitNumber(t.text())[1].isEmpty())
            throw new QueryException(t.start(), t.end(), expected + " but found '" + t.text() + "'");
        advance();
        return new Limit(l, t.start(), t.end());
    }

    /** The error for a query past {@link #MAX_LENGTH}, spanning its first character (the line is not repeated in full). */
    public static QueryException tooLong(String text) {
        return new QueryException(0, 1, "query too long (" + text.length() + " characters, at most " + MAX_LENGTH + ")");
    }

    private void enter(Token t) throws QueryException {
        if (++depth > MAX_DEPTH) throw new QueryException(t.start(), t.end(), "expression nested too deeply (more than " + MAX_DEPTH + " levels)");
    }

}
