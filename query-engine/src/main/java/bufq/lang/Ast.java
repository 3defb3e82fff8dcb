package bufq.lang;

import java.util.List;
import java.util.stream.Collectors;
import java.math.BigDecimal;
import java.math.MathContext;

/** The query tree: sealed records with source spans, built by {@link Parser}, checked in {@code bufq.eval}. */
public final class Ast {
    private Ast() {}

    /** Anything with a half-open source span. */
    public interface Spanned {
        int start();
        int end();
    }

    /**
     * {@code <entity> [where e] [group by f,...] [show item,...] [order by key,...] [limit n]}; absent
     * clauses are null (where, limit) or empty lists.
     */
    public record Query(Name entity, Expr where, List<Name> groupBy, List<Item> show, List<OrderKey> orderBy,
                        Limit limit) {
        public Query {
            groupBy = List.copyOf(groupBy);
            show = List.copyOf(show);
            orderBy = List.copyOf(orderBy);
        }

        /** Canonical one-line form; the parser tests compare against it. */
        public String print() {
            StringBuilder b = new StringBuilder(entity.text());
            if (where != null) b.append(" where ").append(where.print());
            if (!groupBy.isEmpty()) b.append(" group by ").append(groupBy.stream().map(Name::text).collect(Collectors.joining(", ")));
            if (!show.isEmpty()) b.append(" show ").append(show.stream().map(Item::print).collect(Collectors.joining(", ")));
            if (!orderBy.isEmpty()) b.append(" order by ").append(orderBy.stream().map(OrderKey::print).collect(Collectors.joining(", ")));
            if (limit != null) b.append(" limit ").append(limit.n());
            return b.toString();
        }
    }

    public record Name(String text, int start, int end) implements Spanned {}

    public record Limit(long n, int start, int end) implements Spanned {}

    /** A {@code show} item: a field or an aggregate call, optionally renamed. */
    public record Item(Expr expr, Name alias) implements Spanned {
        public int start() { return expr.start(); }
        public int end() { return alias != null ? alias.end() : expr.end(); }
        public String print() { return expr.print() + (alias == null ? "" : " as " + alias.text()); }
    }

    public record OrderKey(Expr expr, boolean desc, int start, int end) implements Spanned {
        public String print() { return expr.print() + (desc ? " desc" : ""); }
    }

    /** Expressions: conditions in {@code where}, operands, and calls in {@code show}/{@code order by}. */
    public sealed interface Expr extends Spanned permits And, Or, Not, Compare, Match, In, IsNull, Live, Field,
            Literal, Call, Arith {
        /** Fully parenthesised form that shows the tree's shape. */
        String print();
    }

    public record And(List<Expr> terms) implements Expr {
        public And { terms = List.copyOf(terms); }
        public int start() { return terms.get(0).start(); }
        public int end() { return terms.get(terms.size() - 1).end(); }
        public String print() { return "(" + terms.stream().map(Expr::print).collect(Collectors.joining(" and ")) + ")"; }
    }

    public record Or(List<Expr> terms) implements Expr {
        public Or { terms = List.copyOf(terms); }
        public int start() { return terms.get(0).start(); }
        public int end() { return terms.get(terms.size() - 1).end(); }
        public String print() { return "(" + terms.stream().map(Expr::print).collect(Collectors.joining(" or ")) + ")"; }
    }

    public record Not(Expr operand, int start) implements Expr {
        public int end() { return operand.end(); }
        public String print() { return "(not " + operand.print() + ")"; }
    }

    /** {@code left op right}; op is one of {@code = != < <= > >=} (aliases {@code ==}, {@code <>} normalised). */
    public record Compare(String op, Expr left, Expr right, int opStart, int opEnd) implements Expr {
        public int start() { return left.start(); }
        public int end() { return right.end(); }
        public String print() { return "(" + left.print() + " " + op + " " + right.print() + ")"; }
    }

    /** {@code left ~ "regex"} or {@code left !~ "regex"}: a find (not a full match). */
    public record Match(Expr left, Literal pattern, boolean negated, int opStart, int opEnd) implements Expr {
        public int start() { return left.start(); }
        public int end() { return pattern.end(); }
        public String print() { return "(" + left.print() + (negated ? " !~ " : " ~ ") + pattern.print() + ")"; }
    }

    public record In(Expr left, List<Expr> items, boolean negated, int opStart, int end) implements Expr {
        public In { items = List.copyOf(items); }
        public int start() { return left.start(); }
        public String print() {
            return "(" + left.print() + (negated ? " not in (" : " in (")
                    + items.stream().map(Expr::print).collect(Collectors.joining(", ")) + "))";
        }
    }

    public record IsNull(Expr operand, boolean negated, int end) implements Expr {
        public int start() { return operand.start(); }
        public String print() { return "(" + operand.print() + (negated ? " is not null)" : " is null)"); }
    }

    /** {@code live at t} ({@code to == from}) or {@code live during a..b}. */
    public record Live(Time from, Time to, boolean during, int start, int end) implements Expr {
        public String print() { return during ? "(live during " + from.print() + ".." + to.print() + ")" : "(live at " + from.print() + ")"; }
    }

    public record Field(Name name) implements Expr {
        public int start() { return name.start(); }
        public int end() { return name.end(); }
        public String print() { return name.text(); }
    }

    /** A constant: Long (integers, sizes in bytes), Double, String or Boolean. */
    public record Literal(Object value, int start, int end) implements Expr {
        public String print() {
            if (value instanceof String s) return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
            return String.valueOf(value);
        }
    }

    /** {@code left op right} with op one of {@code * / +}: arithmetic on fields and numbers, in {@code order by}. */
    public record Arith(String op, Expr left, Expr right) implements Expr {
        public int start() { return left.start(); }
        public int end() { return right.end(); }
        public String print() { return "(" + left.print() + " " + op + " " + right.print() + ")"; }
    }

    /** {@code count()}, {@code sum(size)}: aggregates, only in {@code show} and {@code order by}. */
    public record Call(Name function, List<Expr> args, int end) implements Expr {
        public Call { args = List.copyOf(args); }
        public int start() { return function.start(); }
        public String print() {
            return function.text() + "(" + args.stream().map(Expr::print).collect(Collectors.joining(", ")) + ")";
        }
    }

    /** A program point in {@code live at}/{@code live during}. */
    public sealed interface Time extends Spanned permits StepNumber, Peak, RankedPeak, ClaimedPeak, Named {
        String print();
    }

    /** A step of the schedule given by its number ({@code live at 12}). */
    public record StepNumber(long step, int start, int end) implements Time {
        public String print() { return Long.toString(step); }
    }

    /** The peak: the first step with the most occupied bytes. */
    public record Peak(int start, int end) implements Time {
        public String print() { return "peak"; }
    }

    /** The step the dump itself labels as its peak. */
    public record ClaimedPeak(int start, int end) implements Time {
        public String print() { return "claimed_peak"; }
    }

    /**
     * {@code peak(N)}: the N-th highest of the module's prominent peaks, 1 being the peak, as the
     * {@code peaks} command with the same options numbers them.
     *
     * @param color    the colour whose occupied bytes are ranked ({@code peaks color N}), or null for all
     * @param minShare the least prominence as a fraction of the highest ({@code peaks min_share P}), or
     *                 null for the default (20%)
     */
    public record RankedPeak(long rank, Long color, Double minShare, int start, int end) implements Time {
        public String print() {
            return "peak(" + rank + (color == null ? "" : ", color " + color)
                    + (minShare == null ? "" : ", min_share " + percent(minShare)) + ")";
        }

        /** A fraction as the percentage {@code peaks} and {@code peak(N, min_share P)} take: 0.05 is {@code 5%}. */
        public static String percent(double share) {
            return BigDecimal.valueOf(share).movePointRight(2).round(new MathContext(10))
                    .stripTrailingZeros().toPlainString() + "%";
        }
    }

    /** An instruction name, resolved to its time when the query runs on a module. */
    public record Named(String name, int start, int end) implements Time {
        public String print() { return name; }
    }
}
