package bufq.eval;

import bufq.eval.Plan.LiveSlot;
import bufq.eval.Plan.Pred;
import bufq.lang.Ast;
import bufq.lang.Ast.*;
import bufq.lang.Diagnostic;
import bufq.lang.NearNames;
import bufq.lang.QueryException;
import bufq.table.ColumnType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;

/** Type-checks a {@code where} expression and compiles it to closures; regexes are compiled here, once. */
final class Conditions {
    private final Entity entity;
    private final String src;
    final List<LiveSlot> slots = new ArrayList<>();
    final Map<Live, Integer> slotOf = new IdentityHashMap<>();
    final List<Plan.RegexHint> regexHints = new ArrayList<>();

    Conditions(Entity entity, String src) {
        this.entity = entity;
        this.src = src;
    }

    /** A typed operand: a field getter or a constant. */
    private record Operand(Expr expr, ColumnType type, Getter getter, Object constant) {
        boolean literal() { return getter == null; }
        Object get(Object row, EvalContext ctx) { return getter == null ? constant : getter.get(row, ctx); }
    }

    Pred compile(Expr e) throws QueryException {
        if (e instanceof And a) {
            Pred[] ps = compileAll(a.terms());
            return (row, run) -> {
                for (Pred p : ps) if (!p.test(row, run)) return false;
                return true;
            };
        }
        if (e instanceof Or o) {
            Pred[] ps = compileAll(o.terms());
            return (row, run) -> {
                for (Pred p : ps) if (p.test(row, run)) return true;
                return false;
            };
        }
        if (e instanceof Not n) {
            Pred p = compile(n.operand());
            return (row, run) -> !p.test(row, run);
        }
        if (e instanceof Live l) {
            if (entity.live() == null) {
                throw new QueryException(l.start(), l.end(), entity.name() + " have no live range: 'live' does not apply to them");
            }
            int slot = slots.size();
            slots.add(new LiveSlot(l.from(), l.to(), l.during()));
            slotOf.put(l, slot);
            Entity.LiveTest t = entity.live();
            return (row, run) -> t.overlaps(row, run.from()[slot], run.to()[slot], run.ctx());
        }
        if (e instanceof Compare c) return compare(c);
        if (e instanceof Match m) return match(m);
        if (e instanceof In in) return in(in);
        if (e instanceof IsNull n) {
            Operand o = operand(n.operand());
            boolean neg = n.negated();
            return (row, run) -> Values.missing(o.get(row, run.ctx())) != neg;
        }
        if (e instanceof Call c) {
            throw new QueryException(c.start(), c.end(), "aggregate " + c.function().text() + "() is only allowed in show and order by");
        }
        Operand o = operand(e);
        if (o.type() == ColumnType.BOOL) {
            return (row, run) -> Boolean.TRUE.equals(o.get(row, run.ctx()));
        }
        String hint = o.literal() ? "" : "; compare it, e.g. " + text(e) + (o.type() == ColumnType.STRING ? " = \"...\"" : " > 0");
        throw new QueryException(e.start(), e.end(), "expected a condition but found " + describe(o) + hint);
    }

    private Pred[] compileAll(List<Expr> terms) throws QueryException {
        Pred[] ps = new Pred[terms.size()];
        for (int i = 0; i < ps.length; i++) ps[i] = compile(terms.get(i));
        return ps;
    }

    private Pred compare(Compare c) throws QueryException {
        Operand l = operand(c.left());
        Operand r = operandOrUnquoted(c.right(), l.type());
        for (Operand o : List.of(l, r)) {
            if (o.type() == ColumnType.LIST)
                throw new QueryException(o.expr().start(), o.expr().end(), "cannot compare " + describe(o)
                        + "; lists can only be tested with 'is null'");
        }
        String op = c.op();
        if (numeric(l.type()) && numeric(r.type())) {
            return (row, run) -> {
                Object a = l.get(row, run.ctx());
                Object b = Values.missing(a) ? null : r.get(row, run.ctx());
                return !Values.missing(b) && test(op, Values.compareNumbers(a, b));
            };
        }
        if (l.type() == r.type() && l.type() == ColumnType.STRING) {
            // = and != are plain equality (the common filter, kept cheap); < and > order as 'order by'
            // does (NaturalOrder: fusion.2 < fusion.10)
            boolean equality = op.equals("=") || op.equals("!="), equal = op.equals("=");
            return (row, run) -> {
                Object a = l.get(row, run.ctx());
                Object b = a == null ? null : r.get(row, run.ctx());
                if (b == null) return false;
                return equality ? a.equals(b) == equal : test(op, Values.compare(a, b));
            };
        }
        if (l.type() == r.type() && l.type() == ColumnType.BOOL) {
            if (!op.equals("=") && !op.equals("!="))
                throw new QueryException(c.opStart(), c.opEnd(), "booleans can only be compared with = or !=, found '" + op + "'");
            return (row, run) -> {
                Object a = l.get(row, run.ctx());
                Object b = a == null ? null : r.get(row, run.ctx());
                return b != null && a.equals(b) == op.equals("=");
            };
        }
        throw mismatch(l, r, "compare");
    }

    private QueryException mismatch(Operand l, Operand r, String verb) {
        if (!l.literal() && r.literal()) {
            return new QueryException(r.expr().start(), r.expr().end(), "expected " + article(l.type()) + " to " + verb
                    + " with " + describe(l) + " but found " + describe(r));
        }
        if (l.literal() && !r.literal()) {
            return new QueryException(l.expr().start(), l.expr().end(), "expected " + article(r.type()) + " to " + verb
                    + " with " + describe(r) + " but found " + describe(l));
        }
        return new QueryException(l.expr().start(), r.expr().end(), "cannot " + verb + " " + describe(l) + " with " + describe(r));
    }

    private Pred match(Match m) throws QueryException {
        Operand l = operand(m.left());
        if (l.type() != ColumnType.STRING) {
            throw new QueryException(m.left().start(), m.opEnd(), "operator '" + (m.negated() ? "!~" : "~")
                    + "' needs a string on its left but found " + describe(l));
        }
        String regex = (String) m.pattern().value();
        Pattern p = Regex.compile(regex, src, m.pattern().start(), m.pattern().end());
        boolean neg = m.negated();
        String literal = literal(regex);
        if (literal != null) {
            // No metacharacters: find() is a substring search, done without a Matcher per row.
            return (row, run) -> {
                Object a = l.get(row, run.ctx());
                return a != null && ((String) a).contains(literal) != neg;
            };
        }
        if (!neg && !l.literal() && m.left() instanceof Field f) regexHints.add(new Plan.RegexHint(f.name().text(), p, l.getter()));
        // One Matcher per thread, reset per row: a query over a million values made a million.
        ThreadLocal<Matcher> matchers = ThreadLocal.withInitial(() -> p.matcher(""));
        return (row, run) -> {
            Object a = l.get(row, run.ctx());
            if (a == null) return false;
            return matchers.get().reset(new Interruptible((String) a)).find() != neg;
        };
    }

    /**
     * The text {@code regex} matches literally, or null when it has a metacharacter (or a surrogate,
     * where the regex engine works on code points and a substring search on chars).
     */
    static String literal(String regex) {
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if ("\\^$.|?*+()[]{}".indexOf(c) >= 0 || Character.isSurrogate(c)) return null;
        }
        return regex;
    }

    /**
     * The text a regex runs over, checking the thread's interrupt now and then: RE2/J's time is
     * linear in the value but also in the pattern's size, so a large pattern on a long value still
     * stops on Ctrl-C and the time limit.
     */
    private static final class Interruptible implements CharSequence {
        private final String s;
        private int calls;

        Interruptible(String s) { this.s = s; }

        @Override public char charAt(int i) {
            if ((++calls & 0xff) == 0 && Thread.currentThread().isInterrupted()) throw new QueryCancelled();
            return s.charAt(i);
        }

        @Override public int length() { return s.length(); }
        @Override public CharSequence subSequence(int start, int end) { return s.substring(start, end); }
        @Override public String toString() { return s; }
    }

    private Pred in(In in) throws QueryException {
        Operand l = operand(in.left());
        if (l.type() == ColumnType.LIST)
            throw new QueryException(in.left().start(), in.left().end(), "cannot test " + describe(l) + " with 'in'");
        List<Object> items = new ArrayList<>();
        for (Expr item : in.items()) {
            Operand r = operandOrUnquoted(item, l.type());
            if (!r.literal()) throw new QueryException(item.start(), item.end(), "expected a constant in the 'in' list but found " + describe(r));
            boolean ok = numeric(l.type()) ? numeric(r.type()) : l.type() == r.type();
            if (!ok) throw mismatch(l, r, "compare");
            items.add(r.constant());
        }
        boolean neg = in.negated();
        if (numeric(l.type())) {
            Object[] ks = items.toArray();
            return (row, run) -> {
                Object a = l.get(row, run.ctx());
                if (Values.missing(a)) return false;
                for (Object k : ks) if (Values.compareNumbers(a, k) == 0) return !neg;
                return neg;
            };
        }
        Set<Object> set = new HashSet<>(items);
        return (row, run) -> {
            Object a = l.get(row, run.ctx());
            return a != null && set.contains(a) != neg;
        };
    }

    /** Like {@link #operand}, but {@code name = fusion.1} explains that strings need quotes. */
    private Operand operandOrUnquoted(Expr e, ColumnType other) throws QueryException {
        if (other == ColumnType.STRING && e instanceof Field f && entity.fields().get(f.name().text()) == null
                && NearNames.near(f.name().text(), entity.fields().keySet()).isEmpty()) {
            throw new QueryException(f.start(), f.end(), "unknown field '" + f.name().text() + "' for " + entity.name()
                    + "; to compare with a string, quote it: \"" + f.name().text() + "\"");
        }
        return operand(e);
    }

    private Operand operand(Expr e) throws QueryException {
        if (e instanceof Literal lit) {
            Object v = lit.value();
            ColumnType t = v instanceof Long ? ColumnType.INT : v instanceof Double ? ColumnType.FLOAT
                    : v instanceof Boolean ? ColumnType.BOOL : ColumnType.STRING;
            return new Operand(e, t, null, v);
        }
        if (e instanceof Field f) {
            FieldDef d = field(entity, f.name());
            return new Operand(e, d.info().type(), d.getter(), null);
        }
        throw new QueryException(e.start(), e.end(), "expected a field or a value but found " + text(e));
    }

    /** The field named {@code n}, or the "unknown field ... did you mean" diagnostic. */
    static FieldDef field(Entity entity, Name n) throws QueryException {
        FieldDef d = entity.fields().get(n.text());
        if (d != null) return d;
        List<String> near = NearNames.near(n.text(), entity.fields().keySet());
        throw new QueryException(new Diagnostic(n.start(), n.end(), "unknown field '" + n.text() + "' for " + entity.name(), near));
    }

    static boolean numeric(ColumnType t) {
        return t == ColumnType.INT || t == ColumnType.BYTES || t == ColumnType.FLOAT || t == ColumnType.PERCENT;
    }

    private static boolean test(String op, int c) {
        return switch (op) {
            case "=" -> c == 0;
            case "!=" -> c != 0;
            case "<" -> c < 0;
            case "<=" -> c <= 0;
            case ">" -> c > 0;
            default -> c >= 0;
        };
    }

    private String describe(Operand o) {
        if (o.literal()) {
            return switch (o.type()) {
                case STRING -> "string " + text(o.expr());
                case BOOL -> "boolean " + text(o.expr());
                default -> "number " + text(o.expr());
            };
        }
        return typeName(o.type()) + " field '" + text(o.expr()) + "'";
    }

    private String text(Ast.Spanned s) {
        int a = Math.max(0, Math.min(s.start(), src.length())), b = Math.max(a, Math.min(s.end(), src.length()));
        return src.substring(a, b);
    }

    private static String article(ColumnType t) {
        return switch (t) {
            case INT, BYTES, FLOAT, PERCENT -> "a number";
            case STRING, NOTE, KEY, STATEMENT -> "a string";
            case BOOL -> "true or false";
            case LIST -> "a list";
        };
    }

    static String typeName(ColumnType t) {
        return switch (t) {
            case INT -> "integer";
            case BYTES -> "bytes";
            case FLOAT -> "number";
            case PERCENT -> "percentage";
            case STRING, NOTE, KEY, STATEMENT -> "string";
            case BOOL -> "boolean";
            case LIST -> "list";
        };
    }
}
