package bufq.eval;

import bufq.eval.Plan.Agg;
import bufq.eval.Plan.AggKind;
import bufq.eval.Plan.Col;
import bufq.eval.Plan.Pred;
import bufq.eval.Plan.Sort;
import bufq.lang.Ast;
import bufq.lang.Ast.*;
import bufq.lang.Diagnostic;
import bufq.lang.NearNames;
import bufq.lang.QueryException;
import bufq.table.ColumnType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Checks a parsed query against a catalog (names, types, arity, grouping) and builds its {@link Plan}. */
final class Checker {
    /** Aggregate functions accepted in show and order by. */
    static final List<String> FUNCTIONS = List.of("count", "sum", "min", "max", "avg");

    private final Catalog catalog;
    private final String src;
    private Entity entity;
    private final List<String> keyNames = new ArrayList<>();
    private final List<Getter> keyGetters = new ArrayList<>();
    private final List<Col> cols = new ArrayList<>();
    private final List<Item> items = new ArrayList<>();

    private Checker(Catalog catalog, String src) {
        this.catalog = catalog;
        this.src = src;
    }

    static Plan check(Ast.Query q, Catalog catalog, String src) throws QueryException {
        return new Checker(catalog, src).plan(q);
    }

    private Plan plan(Ast.Query q) throws QueryException {
        Name en = q.entity();
        entity = catalog.entity(en.text());
        if (entity == null) {
            throw new QueryException(new Diagnostic(en.start(), en.end(), "unknown entity '" + en.text()
                    + "'; expected one of " + String.join(", ", catalog.entities()), NearNames.near(en.text(), catalog.entities())));
        }
        Conditions conds = new Conditions(entity, src);
        Pred where = q.where() == null ? null : conds.compile(q.where());
        int indexSlot = entity.index() == null ? -1 : indexSlot(q.where(), conds);

        for (Name k : q.groupBy()) {
            FieldDef d = Conditions.field(entity, k);
            keyNames.add(k.text());
            keyGetters.add(d.getter());
        }
        boolean aggregated = !q.groupBy().isEmpty() || q.show().stream().anyMatch(i -> i.expr() instanceof Call);

        List<Item> show = new ArrayList<>(q.show());
        if (show.isEmpty()) {
            if (!q.groupBy().isEmpty()) {
                for (Name k : q.groupBy()) show.add(new Item(new Field(k), null));
                show.add(new Item(new Call(new Name("count", 0, 0), List.of(), 0), null));
            } else {
                for (String f : entity.defaults()) show.add(new Item(new Field(new Name(f, en.start(), en.end())), null));
            }
        }
        for (Item it : show) {
            String name = it.alias() != null ? it.alias().text() : it.expr().print();
            cols.add(column(it.expr(), name, aggregated, q.groupBy().isEmpty()));
            items.add(it);
        }
        int visible = cols.size();

        List<Sort> sort = new ArrayList<>();
        for (OrderKey k : q.orderBy()) sort.add(new Sort(orderColumn(k.expr(), aggregated, q.groupBy().isEmpty()), k.desc()));

        long limit = q.limit() == null ? -1 : q.limit().n();
        return new Plan(entity, where, indexSlot, List.copyOf(conds.slots), aggregated, List.copyOf(keyGetters),
                List.copyOf(cols), visible, List.copyOf(sort), limit, List.copyOf(conds.regexHints));
    }

    /** The liveness slot to drive the scan from the interval index: a top-level {@code live} term of a conjunction. */
    private static int indexSlot(Expr where, Conditions conds) {
        if (where instanceof Live l) return conds.slotOf.get(l);
        if (where instanceof And a) {
            for (Expr t : a.terms()) if (t instanceof Live l) return conds.slotOf.get(l);
        }
        return -1;
    }

    private Col column(Expr e, String name, boolean aggregated, boolean noGroup) throws QueryException {
        if (e instanceof Call c) {
            Agg agg = aggregate(c);
            return new Col(name, resultType(agg), null, -1, agg);
        }
        Field f = (Field) e;
        FieldDef d = Conditions.field(entity, f.name());
        if (!aggregated) return new Col(name, d.info().type(), d.getter(), -1, null);
        int key = keyNames.indexOf(f.name().text());
        if (key < 0) {
            String msg = noGroup
                    ? "field '" + f.name().text() + "' cannot be shown beside aggregates without group by; add 'group by "
                      + f.name().text() + "' or remove it"
                    : "field '" + f.name().text() + "' is not a group by key; with group by, show only group keys ("
                      + String.join(", ", keyNames) + ") and aggregates";
            throw new QueryException(f.start(), f.end(), msg);
        }
        return new Col(name, d.info().type(), null, key, null);
    }

    private int orderColumn(Expr e, boolean aggregated, boolean noGroup) throws QueryException {
        if (e instanceof Arith a) {
            if (aggregated) {
                throw new QueryException(a.start(), a.end(), "arithmetic in 'order by' works on the fields of rows, not on groups"
                        + " or aggregates; order by a group key, an aggregate or a show alias");
            }
            Numeric n = numeric(a);
            String text = a.print();
            cols.add(new Col(text.substring(1, text.length() - 1), n.type(), n.getter(), -1, null));
            return cols.size() - 1;
        }
        if (e instanceof Literal l) throw new QueryException(l.start(), l.end(), "a number alone orders nothing; name a field");
        if (e instanceof Field f) {
            String n = f.name().text();
            for (int i = 0; i < items.size(); i++) {
                Item it = items.get(i);
                if (it.alias() != null && it.alias().text().equals(n)) return i;
            }
            for (int i = 0; i < items.size(); i++) {
                Item it = items.get(i);
                if (it.alias() == null && it.expr() instanceof Field g && g.name().text().equals(n)) return i;
            }
            if (aggregated && entity.fields().get(n) != null && !keyNames.contains(n)) {
                throw new QueryException(f.start(), f.end(), "cannot order by field '" + n + "': "
                        + (noGroup ? "the result is one row of aggregates" : "it is not a group by key")
                        + "; order by a group key, an aggregate or a show alias");
            }
            if (entity.fields().get(n) == null) {
                List<String> names = new ArrayList<>(entity.fields().keySet());
                for (Item it : items) if (it.alias() != null) names.add(it.alias().text());
                throw new QueryException(new Diagnostic(f.start(), f.end(), "unknown field or alias '" + n
                        + "' for " + entity.name(), NearNames.near(n, names)));
            }
        } else if (e instanceof Call c) {
            String printed = c.print();
            for (int i = 0; i < items.size(); i++) {
                Item it = items.get(i);
                if (it.expr() instanceof Call ic && ic.print().equals(printed)) return i;
            }
            if (!aggregated) {
                throw new QueryException(c.start(), c.end(), "cannot order by " + printed
                        + " without group by or an aggregate in show");
            }
        }
        cols.add(column(e, e.print(), aggregated, noGroup));
        return cols.size() - 1;
    }

    /** A numeric term of an {@code order by} key: its type and a getter (null when a field is null). */
    private record Numeric(ColumnType type, Getter getter) {}

    private Numeric numeric(Expr e) throws QueryException {
        if (e instanceof Literal l && l.value() instanceof Number num) {
            return new Numeric(num instanceof Double ? ColumnType.FLOAT : ColumnType.INT, (row, ctx) -> num);
        }
        if (e instanceof Field f) {
            FieldDef d = Conditions.field(entity, f.name());
            ColumnType t = d.info().type();
            if (!Conditions.numeric(t)) {
                throw new QueryException(f.start(), f.end(), "arithmetic needs numeric fields but found "
                        + Conditions.typeName(t) + " field '" + f.name().text() + "'");
            }
            return new Numeric(t, d.getter());
        }
        if (e instanceof Arith a) {
            Numeric l = numeric(a.left()), r = numeric(a.right());
            boolean whole = a.op().equals("/") ? false : whole(l.type()) && whole(r.type());
            String op = a.op();
            Getter lg = l.getter(), rg = r.getter();
            Getter g = (row, ctx) -> {
                Object x = lg.get(row, ctx), y = rg.get(row, ctx);
                if (!(x instanceof Number p) || !(y instanceof Number q)) return null;
                if (whole) {
                    long u = p.longValue(), v = q.longValue();
                    return op.equals("*") ? Math.multiplyExact(u, v) : Math.addExact(u, v);
                }
                double u = p.doubleValue(), v = q.doubleValue();
                return switch (op) { case "*" -> u * v; case "/" -> v == 0 ? null : u / v; default -> u + v; };
            };
            return new Numeric(whole ? ColumnType.INT : ColumnType.FLOAT, g);
        }
        throw new QueryException(e.start(), e.end(), "arithmetic takes fields and numbers, not " + e.print());
    }

    private static boolean whole(ColumnType t) { return t == ColumnType.INT || t == ColumnType.BYTES; }

    // call = count() | sum(f) | min(f) | max(f) | avg(f)
    private Agg aggregate(Call c) throws QueryException {
        String fn = c.function().text().toLowerCase(Locale.ROOT);
        if (!FUNCTIONS.contains(fn)) {
            throw new QueryException(new Diagnostic(c.function().start(), c.function().end(), "unknown function '"
                    + c.function().text() + "'; expected one of " + String.join("(), ", FUNCTIONS) + "()",
                    NearNames.near(c.function().text(), FUNCTIONS)));
        }
        AggKind kind = AggKind.valueOf(fn.toUpperCase(Locale.ROOT));
        if (kind == AggKind.COUNT) {
            if (!c.args().isEmpty())
                throw new QueryException(c.start(), c.end(), "count() takes no arguments but found " + c.args().size());
            return new Agg(kind, null, ColumnType.INT);
        }
        if (c.args().size() != 1) {
            throw new QueryException(c.start(), c.end(), fn + "() takes one field, e.g. " + fn + "(size), but found "
                    + (c.args().isEmpty() ? "none" : c.args().size() + " arguments"));
        }
        Field f = (Field) c.args().get(0);
        FieldDef d = Conditions.field(entity, f.name());
        ColumnType t = d.info().type();
        boolean ok = Conditions.numeric(t) || ((kind == AggKind.MIN || kind == AggKind.MAX) && t == ColumnType.STRING);
        if (!ok) {
            throw new QueryException(f.start(), f.end(), fn + "() needs a " + (kind == AggKind.MIN || kind == AggKind.MAX
                    ? "number or string" : "numeric") + " field but found " + Conditions.typeName(t) + " field '" + f.name().text() + "'");
        }
        return new Agg(kind, d.getter(), t);
    }

    private static ColumnType resultType(Agg a) {
        return switch (a.kind()) {
            case COUNT -> ColumnType.INT;
            case SUM -> a.argType() == ColumnType.INT || a.argType() == ColumnType.BYTES ? a.argType() : ColumnType.FLOAT;
            case MIN, MAX -> a.argType();
            case AVG -> a.argType() == ColumnType.BYTES ? ColumnType.BYTES : ColumnType.FLOAT;
        };
    }
}
