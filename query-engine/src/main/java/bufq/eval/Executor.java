package bufq.eval;

import bufq.analysis.liveness.Liveness;
import bufq.eval.Plan.Agg;
import bufq.eval.Plan.Col;
import bufq.eval.Plan.LiveSlot;
import bufq.eval.Plan.Run;
import bufq.eval.Plan.Sort;
import bufq.lang.Ast;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.analysis.liveness.Prominence;
import bufq.model.TilingModel;
import bufq.table.Column;
import bufq.table.ColumnType;
import bufq.table.Table;
import com.google.re2j.Matcher;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.RandomAccess;
import java.util.function.Function;
import java.util.function.IntFunction;

/** Runs a {@link Plan} on one module: resolve times, pick rows (interval index or scan), filter, group, sort, limit. */
final class Executor {
    /** A query's table's name in data formats (ndjson's {@code table}). */
    static final String RESULT = "result";
    private Executor() {}

    static Table run(Plan p, EvalContext ctx) throws QueryException {
        List<String> notes = new ArrayList<>();
        Run run = resolve(p.slots(), ctx, notes);
        List<?> rows = p.indexSlot() >= 0
                ? p.entity().index().candidates(run.from()[p.indexSlot()], run.to()[p.indexSlot()], ctx)
                : p.entity().rows().rows(ctx);
        List<Object[]> out = p.aggregated() ? limit(sorted(grouped(p, rows, run), p), p) : plain(p, rows, run);
        // An aggregate has a row (count() 0) even when the pattern matched nothing: ask it too.
        if (out.isEmpty() || p.aggregated()) notes.addAll(regexHints(p, ctx));
        if (out instanceof LazyCells lazy) {
            List<Column> columns = new ArrayList<>();
            for (int i = 0; i < p.visible(); i++) columns.add(new Column(p.cols().get(i).name(), p.cols().get(i).type()));
            return Table.lazy(null, RESULT, columns, lazy.size(), lazy::get, notes);
        }

        Table.Builder b = Table.builder().key(RESULT).expectRows(out.size());
        for (int i = 0; i < p.visible(); i++) b.column(p.cols().get(i).name(), p.cols().get(i).type());
        for (Object[] r : out) b.ownedRow(r.length == p.visible() ? r : Arrays.copyOf(r, p.visible()));
        for (String n : notes) b.note(n);
        return b.build();
    }

    /**
     * For a query that found nothing, or an aggregate: each pattern with metacharacters that matches no row's
     * field at all while its text, read literally, occurs in some, is told (one scan per such pattern).
     */
    private static List<String> regexHints(Plan p, EvalContext ctx) {
        List<String> out = new ArrayList<>();
        for (Plan.RegexHint h : p.regexHints()) {
            String text = h.pattern().pattern();
            Matcher m = h.pattern().matcher("");
            int literal = 0, seen = 0;
            boolean matched = false;
            for (Object row : p.entity().rows().rows(ctx)) {
                if ((seen++ & 4095) == 0) checkInterrupt();
                if (h.getter().get(row, ctx) instanceof String s) {
                    if (m.reset(s).find()) { matched = true; break; }
                    if (s.contains(text)) literal++;
                }
            }
            if (!matched && literal > 0) {
                out.add("the regular expression \"" + text + "\" matches no " + h.field() + ", but its text read literally is in "
                        + literal + "; escape its metacharacters with a backslash (\\( \\) \\. \\[) to match them as written");
            }
        }
        return out;
    }

    /**
     * Filters, then fills only the sort columns, sorts and cuts to the limit, and only then reads
     * the other columns: {@code order by size desc limit 10} reads 10 shapes, not thousands. A limit
     * well under the number of rows keeps the best rows in a bounded heap ({@link TopK}) instead of
     * sorting them all; the result is the same as the stable sort's. Returns rows of the visible
     * columns only, each a fresh array.
     */
    private static List<Object[]> plain(Plan p, List<?> rows, Run run) {
        int n = p.cols().size(), vis = p.visible();
        Getter[] gs = new Getter[n];
        for (int i = 0; i < n; i++) gs[i] = p.cols().get(i).getter();
        Plan.Pred where = p.where();
        EvalContext ctx = run.ctx();
        if (p.sort().isEmpty()) {
            // Row order: the getters run only on the rows kept.
            int cap = (int) Math.min(rows.size(), p.limit() < 0 ? Integer.MAX_VALUE : p.limit());
            // Sized for every row at once: regrowing a list of a million makes large (G1 humongous) copies.
            List<Object> kept = new ArrayList<>(cap);
            int seen = 0;
            for (Object row : rows) {
                if ((seen++ & 4095) == 0) checkInterrupt();  // also on the first row: small inputs cancel too
                if (where != null && !where.test(row, run)) continue;
                if (kept.size() < cap) kept.add(row);
            }
            return visibleRows(kept.size(), i -> {
                Object row = kept.get(i);
                Object[] cells = new Object[vis];
                for (int c = 0; c < vis; c++) cells[c] = gs[c].get(row, ctx);
                return cells;
            }, lazyOk(gs, vis, ctx));
        }
        boolean[] early = new boolean[n];
        int[] sortCols = p.sort().stream().mapToInt(Sort::column).distinct().toArray();
        for (int c : sortCols) early[c] = true;
        Comparator<Object[]> cmp = comparator(p.sort());
        boolean bounded = p.limit() >= 0 && p.limit() <= rows.size() / 2;
        TopK<Object[]> top = bounded ? new TopK<>((int) p.limit(), cmp) : null;
        List<Object[]> all = bounded ? null : new ArrayList<>();
        Object[] cells = null;
        int seen = 0;
        for (Object row : rows) {
            if ((seen++ & 4095) == 0) checkInterrupt();  // also on the first row: small inputs cancel too
            if (where != null && !where.test(row, run)) continue;
            if (cells == null) cells = new Object[n + 1];
            for (int c : sortCols) cells[c] = gs[c].get(row, ctx);
            cells[n] = row;
            if (bounded) {
                if (!top.wouldKeep(cells)) continue;   // the array is reused for the next row
                top.offer(cells);
            } else {
                all.add(cells);
            }
            cells = null;
        }
        List<Object[]> best;
        if (bounded) best = top.result();
        else {
            all.sort(cmp);   // stable: ties keep row order
            best = p.limit() >= 0 && all.size() > p.limit() ? all.subList(0, (int) p.limit()) : all;
        }
        return visibleRows(best.size(), k -> {
            Object[] c = best.get(k);
            Object row = c[n];
            Object[] r = new Object[vis];
            for (int i = 0; i < vis; i++) r[i] = early[i] ? c[i] : gs[i].get(row, ctx);
            return r;
        }, lazyOk(gs, vis, ctx));
    }

    /**
     * The entity rows a plain query keeps, in its order and cut to its limit, without reading its
     * columns: what commands that act on a selection ({@code why}, {@code whatif}) need.
     */
    static List<Object> select(Plan p, EvalContext ctx) throws QueryException {
        Run run = resolve(p.slots(), ctx, new ArrayList<>());
        List<?> rows = p.indexSlot() >= 0
                ? p.entity().index().candidates(run.from()[p.indexSlot()], run.to()[p.indexSlot()], ctx)
                : p.entity().rows().rows(ctx);
        int n = p.cols().size();
        int[] sortCols = p.sort().stream().mapToInt(Sort::column).distinct().toArray();
        List<Object[]> kept = new ArrayList<>();
        int seen = 0;
        for (Object row : rows) {
            if ((seen++ & 4095) == 0) checkInterrupt();
            if (p.where() != null && !p.where().test(row, run)) continue;
            Object[] cells = new Object[n + 1];
            for (int c : sortCols) cells[c] = p.cols().get(c).getter().get(row, ctx);
            cells[n] = row;
            kept.add(cells);
        }
        List<Object[]> best = limit(sorted(kept, p), p);
        List<Object> out = new ArrayList<>(best.size());
        for (Object[] c : best) out.add(c[n]);
        return out;
    }

    /** The {@code size} rows {@code make} builds: made when read ({@link LazyCells}), or all of them now. */
    private static List<Object[]> visibleRows(int size, IntFunction<Object[]> make, boolean lazy) {
        if (lazy) return new LazyCells(size, make);
        List<Object[]> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            if ((i & 4095) == 0) checkInterrupt();
            out.add(make.apply(i));
        }
        return out;
    }

    /**
     * Whether the visible columns may be read after the query returns, when the table is printed
     * ({@link Table#lazy}): only when none of them runs a script (a script field, or a padded size
     * under a script's tiling model), whose code must run inside the query's guarded call.
     */
    private static boolean lazyOk(Getter[] gs, int vis, EvalContext ctx) {
        if (ctx.tiling() != TilingModel.TPU && ctx.tiling() != TilingModel.NONE) return false;
        for (int i = 0; i < vis; i++) if (gs[i] instanceof ScriptGetter) return false;
        return true;
    }

    /** Rows of visible cells made on reading: {@code get(i)} computes row {@code i} each time. */
    private static final class LazyCells extends AbstractList<Object[]> implements RandomAccess {
        private final int size;
        private final IntFunction<Object[]> row;

        LazyCells(int size, IntFunction<Object[]> row) {
            this.size = size;
            this.row = row;
        }

        @Override public Object[] get(int i) { return row.apply(Objects.checkIndex(i, size)); }
        @Override public int size() { return size; }
    }

    /** The shell cancels a long query (Ctrl-C) by interrupting the thread running it. */
    private static void checkInterrupt() {
        if (Thread.currentThread().isInterrupted()) throw new QueryCancelled();
    }

    private static List<Object[]> sorted(List<Object[]> rows, Plan p) {
        if (!p.sort().isEmpty()) rows.sort(comparator(p.sort()));
        return rows;
    }

    private static List<Object[]> limit(List<Object[]> rows, Plan p) {
        if (p.limit() >= 0 && rows.size() > p.limit()) return rows.subList(0, (int) Math.min(Integer.MAX_VALUE, p.limit()));
        return rows;
    }

    private static List<Object[]> grouped(Plan p, List<?> rows, Run run) {
        List<Getter> keys = p.groupKeys();
        List<Col> cols = p.cols();
        // Keyed by the value itself for one key (no list per row), by the list of values for several;
        // both in first-seen order, which the stable key sort below keeps for keys that compare equal.
        Map<Object, Accumulator[]> groups = new LinkedHashMap<>();
        if (keys.isEmpty()) groups.put(List.of(), accumulators(cols));
        Function<Object, Accumulator[]> fresh = x -> accumulators(cols);
        Getter single = keys.size() == 1 ? keys.get(0) : null;
        Plan.Pred where = p.where();
        EvalContext ctx = run.ctx();
        int seen = 0;
        for (Object row : rows) {
            if ((seen++ & 4095) == 0) checkInterrupt();  // also on the first row: small inputs cancel too
            if (where != null && !where.test(row, run)) continue;
            Object key;
            if (keys.isEmpty()) key = List.of();
            else if (single != null) key = single.get(row, ctx);
            else {
                Object[] k = new Object[keys.size()];
                for (int i = 0; i < k.length; i++) k[i] = keys.get(i).get(row, ctx);
                key = Arrays.asList(k);
            }
            Accumulator[] acc = groups.computeIfAbsent(key, fresh);
            for (Accumulator a : acc) if (a != null) a.add(row, ctx);
        }
        // Groups come out in key order, so `group by color` reads 0, 1, 2 without an `order by`;
        // an explicit `order by` re-sorts stably afterwards.
        List<Map.Entry<List<Object>, Accumulator[]>> entries = new ArrayList<>(groups.size());
        for (Map.Entry<Object, Accumulator[]> g : groups.entrySet()) {
            @SuppressWarnings("unchecked")
            List<Object> key = single != null ? Arrays.asList(g.getKey()) : (List<Object>) g.getKey();
            entries.add(Map.entry(key, g.getValue()));
        }
        entries.sort((a, b) -> Values.compare(a.getKey(), b.getKey()));
        List<Object[]> out = new ArrayList<>(groups.size());
        for (Map.Entry<List<Object>, Accumulator[]> g : entries) {
            Object[] cells = new Object[cols.size()];
            for (int i = 0; i < cells.length; i++) {
                Col c = cols.get(i);
                cells[i] = c.agg() != null ? g.getValue()[i].result() : g.getKey().get(c.keyIndex());
            }
            out.add(cells);
        }
        return out;
    }

    private static Accumulator[] accumulators(List<Col> cols) {
        Accumulator[] a = new Accumulator[cols.size()];
        for (int i = 0; i < a.length; i++) if (cols.get(i).agg() != null) a[i] = new Accumulator(cols.get(i).agg());
        return a;
    }

    /** Nulls (and NaN) sort last in either direction; ties keep row order (the sort is stable). */
    private static Comparator<Object[]> comparator(List<Sort> keys) {
        return (x, y) -> {
            for (Sort s : keys) {
                Object a = x[s.column()], b = y[s.column()];
                boolean noA = Values.missing(a), noB = Values.missing(b);
                if (noA || noB) {
                    if (noA != noB) return noA ? 1 : -1;
                    continue;
                }
                int c = Values.compare(a, b);
                if (c != 0) return s.desc() ? -c : c;
            }
            return 0;
        };
    }

    private static Run resolve(List<LiveSlot> slots, EvalContext ctx, List<String> notes) throws QueryException {
        int[] from = new int[slots.size()], to = new int[slots.size()];
        for (int i = 0; i < from.length; i++) {
            LiveSlot s = slots.get(i);
            from[i] = time(s.from(), ctx.module(), notes);
            to[i] = s.during() ? time(s.to(), ctx.module(), notes) : from[i];
            int max = ctx.module().info().maxTime();
            if (from[i] > max && max >= 0) {
                String note = "step " + from[i] + " is past the last step (" + max + ")";
                if (!notes.contains(note)) notes.add(note);
            }
            if (from[i] > to[i]) {
                throw new QueryException(s.from().start(), s.to().end(), "'live during' needs its first time before its second, found "
                        + from[i] + ".." + to[i]);
            }
        }
        return new Run(ctx, from, to);
    }

    private static int time(Ast.Time t, HloModule m, List<String> notes) throws QueryException {
        if (t instanceof Ast.StepNumber s) {
            if (m.info().maxTime() < 0) {
                String note = "this module has no live ranges, so nothing is live at any step";
                if (!notes.contains(note)) notes.add(note);
            }
            return (int) s.step();
        }
        if (t instanceof Ast.Peak) {
            int p = Liveness.of(m).peakTime();
            if (p < 0) {
                // Dumps written without the analysis have no ranges: nothing is live, say why.
                String note = "this module has no live ranges, so nothing is live at peak";
                if (!notes.contains(note)) notes.add(note);
            }
            return p;
        }
        if (t instanceof Ast.ClaimedPeak) {
            int p = Liveness.of(m).claimedPeakTime();
            if (p < 0) {
                String note = "this module's dump labels no peak step, so nothing is live at claimed_peak";
                if (!notes.contains(note)) notes.add(note);
            }
            return p;
        }
        if (t instanceof Ast.RankedPeak r) {
            // numbered as 'peaks' with the same options numbers its rows
            OptionalInt color = r.color() == null ? OptionalInt.empty() : OptionalInt.of(r.color().intValue());
            if (color.isPresent() && !Liveness.of(m).colors().contains(color.getAsInt())) {
                throw new QueryException(t.start(), t.end(), "module " + m.handle() + " has no color " + r.color()
                        + "; its colors are " + Liveness.of(m).colors());
            }
            double share = r.minShare() == null ? Prominence.DEFAULT_SHARE : r.minShare();
            List<Prominence.Ranked> peaks = Prominence.ranked(Liveness.of(m).occupiedBytesByStep(color), share);
            if (r.rank() > peaks.size()) {
                String options = (color.isPresent() ? " color " + r.color() : "") + (r.minShare() == null ? "" : " min_share "
                        + Ast.RankedPeak.percent(share));
                throw new QueryException(t.start(), t.end(), "module " + m.handle() + " has " + peaks.size() + " peak"
                        + (peaks.size() == 1 ? "" : "s") + (color.isPresent() ? " of color " + r.color() : "")
                        + " with a prominence of at least " + Ast.RankedPeak.percent(share) + " of the highest; see 'peaks"
                        + options + "'");
            }
            return peaks.get((int) r.rank() - 1).step();
        }
        return Step.named(m, ((Ast.Named) t).name(), t.start(), t.end());
    }

    /** One aggregate's running state. Sums of integers stay exact (overflow fails the query). */
    private static final class Accumulator {
        private final Agg agg;
        private long count;
        private long lsum;
        private double dsum;
        private boolean floating;
        private Object best;

        Accumulator(Agg agg) { this.agg = agg; }

        void add(Object row, EvalContext ctx) {
            if (agg.kind() == Plan.AggKind.COUNT) { count++; return; }
            Object v = agg.arg().get(row, ctx);
            if (Values.missing(v)) return;
            count++;
            switch (agg.kind()) {
                case SUM, AVG -> {
                    if (v instanceof Long l && !floating) lsum = Math.addExact(lsum, l);
                    else { floating = true; dsum += ((Number) v).doubleValue(); }
                }
                case MIN -> { if (best == null || Values.compare(v, best) < 0) best = v; }
                case MAX -> { if (best == null || Values.compare(v, best) > 0) best = v; }
                default -> { }
            }
        }

        Object result() {
            return switch (agg.kind()) {
                case COUNT -> count;
                case SUM -> {
                    boolean integral = agg.argType() == ColumnType.INT || agg.argType() == ColumnType.BYTES;
                    if (integral) yield floating ? (long) (lsum + dsum) : lsum;
                    yield lsum + dsum;
                }
                case MIN, MAX -> best;
                case AVG -> {
                    if (count == 0) yield null;
                    double avg = (lsum + dsum) / count;
                    yield agg.argType() == ColumnType.BYTES ? (Object) Math.round(avg) : (Object) avg;
                }
            };
        }
    }
}
