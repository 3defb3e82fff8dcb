package bufq.fuzz;

import bufq.eval.Catalog;
import bufq.eval.FieldInfo;
import bufq.lang.Lexer;
import bufq.lang.Token;
import bufq.lang.TokenKind;
import bufq.table.ColumnType;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random queries that follow GRAMMAR.md (so most get past the parser and reach the checker and
 * the evaluator), and token-level mutations of any query (so the error paths are walked too).
 */
final class QueryGen {
    private final Catalog catalog;
    private final Random r;
    private final List<String> names;

    static final String[] NUMBERS = {
        "0", "1", "13", "-3", "4KiB", "1.5MiB", "2GB", "0.5", "1.3B", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "99999999999999999999999", "8EiB", "1TiB", "100000000TiB", "0.1", "-0", "1.", ".5",
    };
    static final String[] STRINGS = {
        "\"fusion\"", "\"\"", "\"(\"", "\"[a-\"", "\"\\\\\"", "\"\\u00e9\"", "\"\\u12\"", "\"\\q\"", "\"a\\nb\"",
        "\"(a|b)*\"", "\"(.|\\n)*\"", "\"^jit\"", "\"\u00d7\"", "\"unterminated",
    };
    static final String[] SOUP = {
        "values", "allocations", "instructions", "steps", "where", "group", "by", "show", "order", "limit", "and", "or",
        "not", "in", "is", "null", "live", "at", "during", "peak", "as", "asc", "desc", "true", "false", "(", ")", ",",
        "..", "=", "==", "<>", "!=", "<", "<=", ">", ">=", "~", "!~", "count", "sum", "min", "max", "avg", "#", "%", ";",
        "\u00e9", "\ud83d", "\t", "\n", "\"", "\\", "%fusion.2", "-", ".", "size", "name", "color",
    };

    QueryGen(Catalog catalog, Random r, List<String> instructionNames) {
        this.catalog = catalog;
        this.r = r;
        this.names = instructionNames.isEmpty() ? List.of("fusion.1") : instructionNames;
    }

    private <T> T pick(List<T> l) { return l.get(r.nextInt(l.size())); }
    private String pick(String[] a) { return a[r.nextInt(a.length)]; }

    // query = entity { clause }
    String query() {
        String entity = pick(catalog.entities());
        List<FieldInfo> fields = catalog.fields(entity);
        StringBuilder b = new StringBuilder(entity);
        List<String> clauses = new ArrayList<>(List.of("where", "group", "show", "order", "limit"));
        java.util.Collections.shuffle(clauses, r);
        for (String c : clauses.subList(0, r.nextInt(clauses.size() + 1))) {
            b.append(' ');
            switch (c) {
                case "where" -> b.append("where ").append(or(fields, 0));
                case "group" -> b.append("group by ").append(list(fields, 1 + r.nextInt(2), false));
                case "show" -> b.append("show ").append(list(fields, 1 + r.nextInt(4), true));
                case "order" -> b.append("order by ").append(orderKeys(fields));
                default -> b.append("limit ").append(r.nextInt(8) == 0 ? pick(NUMBERS) : String.valueOf(r.nextInt(20)));
            }
        }
        return b.toString();
    }

    private String or(List<FieldInfo> fields, int depth) {
        String s = and(fields, depth);
        return depth < 4 && r.nextInt(5) == 0 ? s + " or " + and(fields, depth + 1) : s;
    }

    private String and(List<FieldInfo> fields, int depth) {
        String s = not(fields, depth);
        return depth < 4 && r.nextInt(3) == 0 ? s + " and " + not(fields, depth + 1) : s;
    }

    private String not(List<FieldInfo> fields, int depth) {
        return r.nextInt(8) == 0 ? "not " + predicate(fields, depth + 1) : predicate(fields, depth);
    }

    private String predicate(List<FieldInfo> fields, int depth) {
        switch (r.nextInt(10)) {
            case 0: return "live at " + time();
            case 1: return "live during " + time() + ".." + time();
            case 2: if (depth < 4) return "(" + or(fields, depth + 1) + ")";
            default:
        }
        FieldInfo f = pick(fields);
        String n = f.name();
        return switch (r.nextInt(6)) {
            case 0 -> n + " is " + (r.nextBoolean() ? "not " : "") + "null";
            case 1 -> n + (r.nextBoolean() ? " ~ " : " !~ ") + pick(STRINGS);
            case 2 -> n + (r.nextBoolean() ? " not" : "") + " in (" + literal(f) + ", " + literal(f) + ")";
            case 3 -> f.type() == ColumnType.BOOL ? n : n + " = " + literal(pick(fields));
            default -> n + " " + pick(new String[] {"=", "!=", "<", "<=", ">", ">=", "==", "<>"}) + " " + literal(f);
        };
    }

    private String time() {
        return switch (r.nextInt(5)) {
            case 0 -> "peak";
            case 1 -> pick(names);
            case 2 -> "\"" + pick(names) + "\"";
            case 3 -> pick(NUMBERS);
            default -> String.valueOf(r.nextInt(40));
        };
    }

    private String literal(FieldInfo f) {
        if (r.nextInt(6) == 0) return pick(r.nextBoolean() ? NUMBERS : STRINGS);
        return switch (f.type()) {
            case INT, BYTES, FLOAT, PERCENT -> pick(NUMBERS);
            case BOOL -> r.nextBoolean() ? "true" : "false";
            case STRING, NOTE, KEY, STATEMENT -> r.nextBoolean() ? "\"" + pick(names) + "\"" : pick(STRINGS);
            case LIST -> "null";
        };
    }

    private String list(List<FieldInfo> fields, int n, boolean calls) {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String it = calls && r.nextInt(3) == 0 ? call(fields) : pick(fields).name();
            if (calls && r.nextInt(5) == 0) it += " as a" + i;
            items.add(it);
        }
        return String.join(", ", items);
    }

    private String call(List<FieldInfo> fields) {
        String fn = pick(new String[] {"count", "sum", "min", "max", "avg"});
        return fn.equals("count") && r.nextInt(4) != 0 ? "count()" : fn + "(" + pick(fields).name() + ")";
    }

    private String orderKeys(List<FieldInfo> fields) {
        List<String> keys = new ArrayList<>();
        for (int i = 0, n = 1 + r.nextInt(2); i < n; i++) {
            String k = r.nextInt(4) == 0 ? call(fields) : pick(fields).name();
            keys.add(k + pick(new String[] {"", " asc", " desc"}));
        }
        return String.join(", ", keys);
    }

    /** One to three token-level edits: delete, duplicate, swap, replace or insert a token or a character. */
    String mutate(String q) {
        String s = q;
        for (int k = 1 + r.nextInt(3); k > 0; k--) {
            List<Token> ts = new ArrayList<>(Lexer.lex(s));
            ts.removeIf(t -> t.kind() == TokenKind.EOF);
            if (ts.isEmpty()) return pick(SOUP);
            Token t = pick(ts);
            String before = s.substring(0, t.start()), after = s.substring(t.end());
            s = switch (r.nextInt(7)) {
                case 0 -> before + after;
                case 1 -> before + t.text() + " " + t.text() + after;
                case 2 -> {
                    Token u = pick(ts);
                    if (u.start() <= t.start()) yield s;
                    yield before + u.text() + s.substring(t.end(), u.start()) + t.text() + s.substring(u.end());
                }
                case 3 -> before + pick(SOUP) + after;
                case 4 -> before + t.text() + " " + pick(SOUP) + after;
                case 5 -> {
                    int at = r.nextInt(s.length() + 1);
                    yield s.substring(0, at) + pick(SOUP).charAt(0) + s.substring(at);
                }
                default -> before + pick(t.kind() == TokenKind.NUMBER ? NUMBERS : STRINGS) + after;
            };
        }
        return s;
    }
}
