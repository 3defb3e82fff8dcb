package bufq.lang.assist;

import bufq.eval.Catalog;
import bufq.eval.FieldInfo;
import bufq.lang.Lexer;
import bufq.lang.Token;
import bufq.lang.TokenKind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What may come at the cursor of a half-typed query, for the REPL's completer. Works from the
 * tokens alone (the query need not parse); the REPL adds module-specific names (instructions,
 * value names) when {@link Context#expected()} asks for them.
 */
public final class Completion {
    private Completion() {}

    /** Kinds of things the grammar allows at a point. */
    public enum Kind {
        ENTITY, CLAUSE, KEYWORD, FIELD, FUNCTION, OPERATOR, VALUE, NUMBER, INSTRUCTION, NAME,
        /** The number of a peak in {@code peak(N)}: the REPL offers the module's peaks, each with its step. */
        PEAK
    }

    /**
     * @param replaceStart where the word being completed starts (== cursor when none)
     * @param prefix       the part of that word before the cursor
     * @param entity       the query's entity, or null when not yet typed or unknown
     * @param field        when a {@link Kind#VALUE} is expected, the field it is compared with
     *                     ({@code name} in {@code name = "fu}), so the REPL can offer that field's
     *                     values; else null
     * @param expected     what the grammar allows here
     * @param candidates   catalog-derived words that fit (entities, keywords, fields, functions
     *                     with "(", operators), filtered by {@code prefix}, in a useful order
     */
    public record Context(int replaceStart, String prefix, String entity, String field, Set<Kind> expected,
                          List<String> candidates) {
        public Context {
            expected = Set.copyOf(expected);
            candidates = List.copyOf(candidates);
        }
    }

    private static final List<String> CLAUSES = List.of("where", "group by", "show", "order by", "limit");
    private static final List<String> OPERATORS = List.of("=", "!=", "<", "<=", ">", ">=", "~", "!~", "in", "not in", "is");

    /** The completion context at {@code cursor} (clamped into the text). */
    public static Context at(String text, int cursor, Catalog catalog) {
        String src = text == null ? "" : text;
        int cur = Math.max(0, Math.min(cursor, src.length()));
        List<Token> tokens = new ArrayList<>(Lexer.lex(src.substring(0, cur)));
        tokens.remove(tokens.size() - 1);  // EOF
        int replaceStart = cur;
        String prefix = "";
        if (!tokens.isEmpty()) {
            Token last = tokens.get(tokens.size() - 1);
            boolean word = last.kind() == TokenKind.IDENT || last.kind() == TokenKind.KEYWORD || last.kind() == TokenKind.NUMBER;
            if (last.end() == cur && (word || last.kind() == TokenKind.ERROR && Lexer.isString(last))) {
                replaceStart = last.start();
                prefix = last.text();
                tokens.remove(tokens.size() - 1);
            }
        }
        Set<Kind> kinds = EnumSet.noneOf(Kind.class);
        List<String> words = new ArrayList<>();
        String entity = null;
        if (tokens.isEmpty()) {
            kinds.add(Kind.ENTITY);
            words.addAll(catalog.entities());
        } else {
            String e = tokens.get(0).text().toLowerCase(Locale.ROOT);
            entity = catalog.entities().contains(e) ? e : null;
            analyse(tokens, entity, catalog, kinds, words);
        }
        List<String> out = new ArrayList<>();
        String p = prefix.toLowerCase(Locale.ROOT);
        for (String w : new LinkedHashSet<>(words)) if (w.toLowerCase(Locale.ROOT).startsWith(p)) out.add(w);
        String field = kinds.contains(Kind.VALUE) ? comparedField(tokens) : null;
        return new Context(replaceStart, prefix, entity, field, kinds, out);
    }

    private static void analyse(List<Token> ts, String entity, Catalog catalog, Set<Kind> kinds, List<String> words) {
        Token last = ts.get(ts.size() - 1);
        Token prev = ts.size() >= 2 ? ts.get(ts.size() - 2) : null;
        String clause = currentClause(ts);
        String kw = last.kind() == TokenKind.KEYWORD ? last.text().toLowerCase(Locale.ROOT) : "";
        if (ts.size() == 1) { clauses(ts, kinds, words); return; }
        switch (kw) {
            case "where", "and", "or" -> { condition(entity, catalog, kinds, words); return; }
            case "not" -> {
                if (prev != null && isOperandEnd(prev)) { keyword("in", kinds, words); return; }
                condition(entity, catalog, kinds, words);
                return;
            }
            case "live" -> { keyword("at", kinds, words); keyword("during", kinds, words); return; }
            case "at", "during" -> { time(kinds, words); return; }
            case "is" -> { keyword("not", kinds, words); keyword("null", kinds, words); return; }
            case "in" -> { kinds.add(Kind.OPERATOR); words.add("("); return; }
            case "group", "order" -> { keyword("by", kinds, words); return; }
            case "by" -> {
                fields(entity, catalog, kinds, words);
                if ("order".equals(clause)) functions(kinds, words);
                return;
            }
            case "show" -> { fields(entity, catalog, kinds, words); functions(kinds, words); return; }
            case "limit" -> { kinds.add(Kind.NUMBER); return; }
            case "as" -> { kinds.add(Kind.NAME); return; }
            default -> { }
        }
        switch (last.kind()) {
            case DOTDOT -> { time(kinds, words); return; }
            case ARITH -> { fields(entity, catalog, kinds, words); kinds.add(Kind.NUMBER); return; }
            case LPAREN -> {
                if (prev != null && prev.isKeyword("in")) { kinds.add(Kind.VALUE); return; }
                if (prev != null && prev.isKeyword("peak")) { kinds.add(Kind.PEAK); return; }
                if (prev != null && prev.kind() == TokenKind.IDENT) { fields(entity, catalog, kinds, words); return; }
                condition(entity, catalog, kinds, words);
                return;
            }
            case OPERATOR -> {
                kinds.add(Kind.VALUE);
                if (!last.text().contains("~")) fields(entity, catalog, kinds, words);
                return;
            }
            case COMMA -> {
                if ("in".equals(clause)) { kinds.add(Kind.VALUE); return; }
                if (insidePeak(ts)) {
                    // peak(N, color C, min_share P): the options of the peaks command
                    kinds.add(Kind.KEYWORD);
                    words.add("color");
                    words.add("min_share");
                    return;
                }
                fields(entity, catalog, kinds, words);
                if ("show".equals(clause) || "order".equals(clause)) functions(kinds, words);
                return;
            }
            default -> { }
        }
        // an operand, a time or a list item is complete
        if ("where".equals(clause) || "in".equals(clause)) {
            if (prev != null && prev.isKeyword("during")) { kinds.add(Kind.OPERATOR); words.add(".."); return; }
            boolean fieldJustTyped = last.kind() == TokenKind.IDENT && prev != null && startsOperand(prev);
            if (fieldJustTyped) {
                kinds.add(Kind.OPERATOR);
                words.addAll(OPERATORS);
            }
            keyword("and", kinds, words);
            keyword("or", kinds, words);
        } else if ("show".equals(clause)) {
            keyword("as", kinds, words);
        } else if ("order".equals(clause)) {
            keyword("asc", kinds, words);
            keyword("desc", kinds, words);
        }
        clauses(ts, kinds, words);
    }

    /** The field left of the last comparison operator or {@code in}, or null. */
    private static String comparedField(List<Token> ts) {
        for (int i = ts.size() - 1; i > 0; i--) {
            Token t = ts.get(i);
            boolean op = t.kind() == TokenKind.OPERATOR || t.isKeyword("in");
            if (!op) continue;
            int j = i - 1;
            if (t.isKeyword("in") && ts.get(j).isKeyword("not")) j--;
            return j >= 0 && ts.get(j).kind() == TokenKind.IDENT ? ts.get(j).text() : null;
        }
        return null;
    }

    /** The clause the cursor is in: where, group, show, order, limit, or "in" inside an open in-list. */
    private static String currentClause(List<Token> ts) {
        String clause = "";
        boolean inList = false;
        for (int i = 1; i < ts.size(); i++) {
            Token t = ts.get(i);
            if (t.kind() == TokenKind.KEYWORD) {
                String k = t.text().toLowerCase(Locale.ROOT);
                if (k.equals("where") || k.equals("group") || k.equals("show") || k.equals("order") || k.equals("limit")) clause = k;
            }
            if (t.kind() == TokenKind.LPAREN && ts.get(i - 1).isKeyword("in")) inList = true;
            if (t.kind() == TokenKind.RPAREN) inList = false;
        }
        return inList ? "in" : clause;
    }

    /** Whether the cursor is inside {@code peak( ... )}, after its opening parenthesis. */
    private static boolean insidePeak(List<Token> ts) {
        for (int i = ts.size() - 1; i > 0; i--) {
            if (ts.get(i).kind() == TokenKind.RPAREN) return false;
            if (ts.get(i).kind() == TokenKind.LPAREN) return ts.get(i - 1).isKeyword("peak");
        }
        return false;
    }

    private static boolean startsOperand(Token prev) {
        return prev.isKeyword("where") || prev.isKeyword("and") || prev.isKeyword("or") || prev.isKeyword("not")
                || prev.kind() == TokenKind.LPAREN;
    }

    private static boolean isOperandEnd(Token t) {
        return t.kind() == TokenKind.IDENT || t.kind() == TokenKind.NUMBER || t.kind() == TokenKind.STRING
                || t.isKeyword("true") || t.isKeyword("false");
    }

    private static void condition(String entity, Catalog catalog, Set<Kind> kinds, List<String> words) {
        fields(entity, catalog, kinds, words);
        keyword("live", kinds, words);
        keyword("not", kinds, words);
    }

    private static void time(Set<Kind> kinds, List<String> words) {
        kinds.add(Kind.NUMBER);
        kinds.add(Kind.INSTRUCTION);
        keyword("peak", kinds, words);
        keyword("claimed_peak", kinds, words);
        words.add("peak(");
    }

    private static void clauses(List<Token> ts, Set<Kind> kinds, List<String> words) {
        kinds.add(Kind.CLAUSE);
        Set<String> used = new LinkedHashSet<>();
        for (Token t : ts) if (t.kind() == TokenKind.KEYWORD) used.add(t.text().toLowerCase(Locale.ROOT));
        for (String c : CLAUSES) if (!used.contains(c.split(" ")[0])) words.add(c);
    }

    private static void fields(String entity, Catalog catalog, Set<Kind> kinds, List<String> words) {
        kinds.add(Kind.FIELD);
        if (entity != null) for (FieldInfo f : catalog.fields(entity)) words.add(f.name());
    }

    private static void functions(Set<Kind> kinds, List<String> words) {
        kinds.add(Kind.FUNCTION);
        for (String f : List.of("count(", "sum(", "min(", "max(", "avg(")) words.add(f);
    }

    private static void keyword(String k, Set<Kind> kinds, List<String> words) {
        kinds.add(Kind.KEYWORD);
        words.add(k);
    }
}
