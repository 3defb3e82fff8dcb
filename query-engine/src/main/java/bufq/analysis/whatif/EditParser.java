package bufq.analysis.whatif;

import bufq.lang.Diagnostic;
import bufq.lang.Lexer;
import bufq.lang.NearNames;
import bufq.lang.QueryException;
import bufq.lang.Token;
import bufq.lang.TokenKind;
import bufq.units.Units;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Parses the argument of {@code whatif}: edits separated by {@code ;}, optionally ending with a
 * query to run on the edited module. Positions in errors are offsets in the whole argument.
 *
 * <pre>
 * whatif := edit (';' edit)* [';' query]
 * edit   := 'drop' 'where' EXPR
 *         | 'end' 'where' EXPR 'at' ('last_use' | STEP | INSTRUCTION)
 *         | 'donate' (NAME | 'where' EXPR)
 *         | 'scale' 'where' EXPR 'by' NUMBER
 *         | 'size' 'where' EXPR '=' BYTES
 *         | 'remat' 'where' EXPR
 *         | 'tiling' NAME
 * </pre>
 * The edits and what follows each word are {@link EditForm}'s; this parses them.
 */
public final class EditParser {
    /** The words that start an edit ({@link EditForm}), for messages and suggestions. */
    public static final List<String> KINDS = EditForm.words();

    /** A parsed {@code whatif}: its edits, and the query after them (null when none) with its offset. */
    public record Parsed(List<Edit> edits, String query, int queryOffset) {}

    private final String src;
    private final Set<String> entities;

    private EditParser(String src, Set<String> entities) {
        this.src = src;
        this.entities = entities;
    }

    /**
     * @param entities names that start a query ({@code values}, {@code steps}, ...): a part starting
     *                 with one is the final query
     */
    public static Parsed parse(String text, Set<String> entities) throws QueryException {
        return new EditParser(text == null ? "" : text, entities).whatif();
    }

    // whatif := edit (';' edit)* [';' query]
    private Parsed whatif() throws QueryException {
        List<Edit> edits = new ArrayList<>();
        List<int[]> parts = split();
        // A trailing ';' (or several) ends the statement; it does not start an empty part.
        while (parts.size() > 1 && src.substring(parts.get(parts.size() - 1)[0], parts.get(parts.size() - 1)[1]).isBlank())
            parts.remove(parts.size() - 1);
        for (int k = 0; k < parts.size(); k++) {
            int from = parts.get(k)[0], to = parts.get(k)[1];
            String part = src.substring(from, to);
            List<Token> toks = Lexer.lex(part);
            Token first = toks.get(0);
            if (first.kind() == TokenKind.EOF) {
                throw new QueryException(from, Math.max(to, from + 1), "expected an edit (" + String.join(", ", KINDS) + ")");
            }
            if (entities.contains(first.text().toLowerCase(java.util.Locale.ROOT)) && !KINDS.contains(first.text())) {
                if (k != parts.size() - 1) throw error(from, first, "a query must be the last part of a whatif");
                if (edits.isEmpty()) throw error(from, first, "a whatif needs at least one edit before its query");
                return new Parsed(edits, part.strip(), from + leadingSpace(part));
            }
            edits.add(edit(part.strip(), from + leadingSpace(part), toks, from));
        }
        if (edits.isEmpty()) throw new QueryException(0, Math.max(1, src.length()), "expected an edit (" + String.join(", ", KINDS) + ")");
        return new Parsed(edits, null, -1);
    }

    // edit := drop | end | donate | scale | size | remat | tiling
    private Edit edit(String text, int textOffset, List<Token> t, int base) throws QueryException {
        Token kind = t.get(0);
        EditForm form = EditForm.byWord(kind.text());
        if (form == null)
            throw error(base, kind, "unknown edit '" + kind.text() + "'; expected " + String.join(", ", KINDS)
                    + ", or a query as the last part", NearNames.near(kind.text(), startWords()));
        switch (form) {
            case DROP: return new Edit.Drop(text, where(t, 1, t.size() - 1, base));
            case REMAT: return new Edit.Remat(text, where(t, 1, t.size() - 1, base));
            case END: {
                // 'end' 'where' EXPR 'at' ('last_use' | STEP | INSTRUCTION): the last top-level 'at'
                int at = lastBefore(t, "at", base, "'at last_use' or 'at STEP' after the condition");
                Token target = t.get(at + 1);
                Edit.Where w = where(t, 1, at, base);
                if (target.kind() == TokenKind.IDENT && target.text().equals("last_use")) return new Edit.End(text, w, -1, null, base + target.start());
                if (target.kind() == TokenKind.NUMBER) return new Edit.End(text, w, wholeNumber(target, base, "a step"), null, base + target.start());
                if (target.kind() == TokenKind.IDENT) return new Edit.End(text, w, -1, target.text(), base + target.start());
                throw error(base, target, "expected last_use, a step or an instruction name after 'at'");
            }
            case DONATE: {
                if (t.size() == 3 && t.get(1).kind() == TokenKind.IDENT) return new Edit.Donate(text, null, t.get(1).text(), base + t.get(1).start());
                if (t.get(1).isKeyword("where")) return new Edit.Donate(text, where(t, 1, t.size() - 1, base), null, -1);
                throw error(base, t.get(1), "expected a parameter's name or 'where' after 'donate'");
            }
            case SCALE: {
                int by = lastBefore(t, "by", base, "'by FACTOR' after the condition");
                Token f = t.get(by + 1);
                if (f.kind() != TokenKind.NUMBER || f.text().matches(".*[A-Za-z].*")) throw error(base, f, "expected a factor such as 0.5 after 'by'");
                double factor = Lexer.numberValue(f.text()).doubleValue();
                if (!(factor >= 0) || Double.isInfinite(factor)) throw error(base, f, "a factor must be 0 or more");
                if (factor > MAX_FACTOR) throw error(base, f, "a factor must be from 0 to " + (long) MAX_FACTOR);
                return new Edit.Scale(text, where(t, 1, by, base), factor);
            }
            case SIZE: {
                int eq = t.size() - 3;   // '=', the size, EOF
                if (eq < 2 || !t.get(eq).is(TokenKind.OPERATOR, "=")) eq = -1;
                if (eq < 0) throw error(base, t.get(t.size() - 1), "expected '= BYTES' (e.g. = 4MiB) after the condition");
                Token n = t.get(eq + 1);
                if (n.kind() != TokenKind.NUMBER) throw error(base, n, "expected a size such as 4MiB after '='");
                return new Edit.Resize(text, where(t, 1, eq, base), bytes(n, base));
            }
            case TILING: {
                if (t.size() != 3 || t.get(1).kind() != TokenKind.IDENT)
                    throw error(base, t.get(Math.min(1, t.size() - 1)), "expected a tiling model's name after 'tiling'");
                return new Edit.Tiling(text, t.get(1).text(), base + t.get(1).start());
            }
            default:
                throw new IllegalStateException("no parse for the edit " + form);
        }
    }

    /** What a part may start with: an edit, or an entity for the query after the edits. */
    private List<String> startWords() {
        List<String> out = new ArrayList<>(KINDS);
        for (String e : new TreeSet<>(entities)) if (!out.contains(e)) out.add(e);
        return out;
    }

    /** {@code 'where' EXPR} spanning tokens {@code [from, to)}: the condition's text and offset. */
    private Edit.Where where(List<Token> t, int from, int to, int base) throws QueryException {
        Token w = t.get(from);
        if (!w.isKeyword("where"))
            throw error(base, w, "expected 'where' and a condition on values after '" + t.get(0).text() + "'", NearNames.near(w.text(), WHERE));
        if (to <= from + 1) throw error(base, t.get(Math.min(from + 1, t.size() - 1)), "expected a condition after 'where'");
        int start = t.get(from + 1).start(), end = t.get(to - 1).end();
        String part = src.substring(base);
        return new Edit.Where(part.substring(start, end), base + start);
    }

    /**
     * Index of the last top-level keyword {@code word} followed by exactly one token and the end;
     * a near word in its place ({@code bi 0.5}) is pointed at with a "did you mean".
     */
    private int lastBefore(List<Token> t, String word, int base, String expected) throws QueryException {
        int i = t.size() - 3;   // the keyword, its operand, EOF
        if (i >= 2 && t.get(i).isKeyword(word)) return i;
        List<String> near = i >= 2 && t.get(i).kind() == TokenKind.IDENT ? NearNames.near(t.get(i).text(), List.of(word)) : List.of();
        throw error(base, near.isEmpty() ? t.get(t.size() - 1) : t.get(i), "expected " + expected, near);
    }

    private long wholeNumber(Token n, int base, String what) throws QueryException {
        BigDecimal v = Lexer.numberValue(n.text());
        if (n.text().matches(".*[A-Za-z].*") || v.signum() < 0 || v.stripTrailingZeros().scale() > 0 || v.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0)
            throw error(base, n, "expected " + what + " (a whole number)");
        return v.longValueExact();
    }

    private long bytes(Token n, int base) throws QueryException {
        String[] parts = Lexer.splitNumber(n.text());
        BigDecimal v = Lexer.numberValue(parts[0]);
        Long unit = parts[1].isEmpty() ? Long.valueOf(1) : Units.factor(parts[1]);
        if (unit == null) throw error(base, n, "unknown size unit '" + parts[1] + "'");
        BigDecimal b = v.multiply(BigDecimal.valueOf(unit));
        if (b.signum() < 0 || b.compareTo(BigDecimal.valueOf(SizeBounds.MAX_BYTES)) > 0) throw error(base, n, "a size must be from 0 to 65536TiB (2^56 bytes)");
        return b.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
    }

    /** The largest {@code scale ... by} factor: far past any real what-if, and a scaled size stays a long. */
    static final double MAX_FACTOR = 1 << 20;

    private static final List<String> WHERE = List.of("where");

    private static QueryException error(int base, Token t, String message) { return error(base, t, message, List.of()); }

    private static QueryException error(int base, Token t, String message, List<String> near) {
        return new QueryException(new Diagnostic(base + t.start(), base + Math.max(t.end(), t.start() + 1), message, near));
    }

    private static int leadingSpace(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        return i;
    }

    /** {@code [from, to)} of each {@code ;}-separated part; a {@code ;} inside a string does not split. */
    private List<int[]> split() {
        List<int[]> out = new ArrayList<>();
        int from = 0;
        char quote = 0;
        for (int i = 0; i < src.length(); i++) {
            char c = src.charAt(i);
            if (quote != 0) {
                if (c == '\\') i++;
                else if (c == quote) quote = 0;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == ';') {
                out.add(new int[] {from, i});
                from = i + 1;
            }
        }
        out.add(new int[] {from, src.length()});
        return out;
    }
}
