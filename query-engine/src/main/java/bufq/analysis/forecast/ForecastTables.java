package bufq.analysis.forecast;

import bufq.units.Units;
import bufq.analysis.liveness.OccupiedShares;
import bufq.analysis.category.Categories;
import bufq.analysis.diff.MatchKey;
import bufq.analysis.diff.ModuleDiff;
import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.Fit;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.MemorySpace;
import bufq.analysis.liveness.Liveness;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Renders a {@link Forecast} as typed tables. Pure: the same forecast gives the same tables. */
final class ForecastTables {
    private ForecastTables() {}

    /** Values listed as holding the peak. */
    static final int HOLDERS = 10;

    /** What a forecast figure is; said under the report and in a column, so every format carries it. */
    static final String BASIS = "forecast: the loaded program's schedule and live ranges, each shape's affine law at N, swept as a compiled module is";

    static List<Output> report(ProgramSeries s, Prediction p, List<Residual> residuals, int limit) {
        List<Output> out = new ArrayList<>(List.of(summary(s, p), holders(s, p), byCategory(s, p), residuals(residuals), laws(s, p, limit)));
        if (s.unpaired() != null) out.add(1, s.unpaired());
        return out;
    }

    static Table summary(ProgramSeries s, Prediction p) {
        Table.Builder t = Table.builder().key("forecast").title("forecast (" + s.modules().get(0).info().name() + " at " + ProgramSeries.VAR + "=" + p.n() + ")")
                .column("dimension", ColumnType.STRING).column("n", ColumnType.INT).column("loaded_sizes", ColumnType.LIST)
                .column("peak_bytes", ColumnType.BYTES).column("peak_step", ColumnType.INT).column("peak_instruction", ColumnType.STRING)
                .column("live_bytes", ColumnType.BYTES).column("needs_bytes", ColumnType.BYTES).column("template", ColumnType.STRING)
                .column("basis", ColumnType.STRING);
        List<Object> sizes = new ArrayList<>();
        for (long n : s.ns()) sizes.add(n);
        t.row(s.dimension(), p.n(), sizes, p.peakBytes(), (long) p.peakTime(), p.peakInstruction(), p.liveBytes(),
                p.needsBytes(), p.template().handle(), BASIS);
        t.note(ProgramSeries.VAR + " is " + s.dimension() + ": " + Law.join(s.ns()) + " in " + String.join(", ", s.modules().stream().map(HloModule::handle).toList()));
        t.note("peak " + Units.human(p.peakBytes()) + " at step " + p.peakTime() + " (" + p.peakInstruction() + "); needs_bytes "
                + Units.human(p.needsBytes()) + " (arguments + outputs - aliases + temp + constants, as 'modules')");
        t.note("built on " + p.template().handle() + " (" + ProgramSeries.VAR + "=" + size(s, p.template()) + "): its schedule, ranges and allocations;"
                + " a temp's packing slack is kept as a ratio");
        if (s.ns().length == 2) t.note("two sizes: every law fits them exactly; load a third size to check the laws and see residuals");
        if (MemorySpace.several(p.module())) {
            // each memory space forecast from its own values; the figures above are the device memory's
            Liveness l = Liveness.of(p.module());
            List<String> spaces = new ArrayList<>();
            for (int c : l.colors())
                if (c != MemorySpace.DEVICE && l.peakTime(c) >= 0) spaces.add(MemorySpace.name(p.module(), c) + " " + Units.human(l.peakBytes(c)));
            t.note("peak_bytes and needs_bytes are of " + MemorySpace.name(p.module(), MemorySpace.DEVICE) + " (color 0); the other"
                    + " memory spaces' forecast peaks, each from its own values: " + String.join(", ", spaces));
        }
        return t.build();
    }

    private static long size(ProgramSeries s, HloModule m) {
        return s.ns()[s.modules().indexOf(m)];
    }

    /** The values live at the forecast peak, largest first, with their laws. */
    static Table holders(ProgramSeries s, Prediction p) {
        HloModule m = p.module();
        Law[] law = lawsOf(s, p.template());
        List<Integer> live = new ArrayList<>();
        long total = 0;
        for (int j = 0; j < m.values().size(); j++) {
            if (m.values().get(j).liveAt(p.peakTime())) {
                live.add(j);
                total = Math.addExact(total, m.values().get(j).size());
            }
        }
        live.sort(Comparator.comparingLong((Integer j) -> -m.values().get(j).size()).thenComparingInt(j -> j));
        Table.Builder t = Table.builder().key("what_holds_the_forecast_peak").title("what holds the forecast peak (step " + p.peakTime() + ")")
                .column("value", ColumnType.STRING).column("size", ColumnType.BYTES).column("share", ColumnType.PERCENT)
                .column("shape", ColumnType.STRING).column("bytes_law", ColumnType.STRING).column("role", ColumnType.STRING)
                .column("op_name", ColumnType.STRING);
        for (int j : live.subList(0, Math.min(HOLDERS, live.size()))) {
            HloValue v = m.values().get(j);
            MatchKey k = ModuleDiff.keyOf(p.template(), p.template().values().get(j));
            t.row(v.label(), v.size(), p.peakBytes() == 0 ? null : (double) v.size() / p.peakBytes(), law[j].shapeText(ProgramSeries.VAR),
                    law[j].bytesText(ProgramSeries.VAR), k.role().word(), k.opGroup());
        }
        t.note(live.size() + (live.size() == 1 ? " value live, " : " values live, ") + Units.human(total)
                + (live.size() > HOLDERS ? "; the " + HOLDERS + " largest listed" : ""));
        return t.build();
    }

    /**
     * The bytes occupied at the forecast peak by category (weights, optimizer state, residuals, ...:
     * {@code blame by category}'s built-in rules, classified on the template, whose values, op_names
     * and schedule the forecast keeps; each byte once, so the rows add up to the forecast peak),
     * beside the same values' logical bytes at the template's size: which part grows.
     */
    static Table byCategory(ProgramSeries s, Prediction p) {
        HloModule m = p.module(), t = p.template();
        Law[] law = lawsOf(s, t);
        Categories categories = Categories.of(t);
        List<Integer> live = new ArrayList<>();
        List<HloValue> values = new ArrayList<>();
        for (int j = 0; j < m.values().size(); j++) {
            if (!m.values().get(j).liveAt(p.peakTime())) continue;
            live.add(j);
            values.add(m.values().get(j));
        }
        long[] shares = OccupiedShares.of(values);   // each byte once, as blame by category counts it
        Map<String, long[]> acc = new TreeMap<>();   // category -> {bytes, values, growing, template bytes}
        for (int i = 0; i < live.size(); i++) {
            int j = live.get(i);
            long[] a = acc.computeIfAbsent(categories.name(j), k -> new long[4]);   // j: a position of the template
            a[0] = Math.addExact(a[0], shares[i]);
            a[1]++;
            if (law[j].varies()) a[2]++;
            a[3] = Math.addExact(a[3], t.values().get(j).size());
        }
        Table.Builder b = Table.builder().key("the_forecast_peak_by_category").title("the forecast peak by category")
                .column("category", ColumnType.STRING).column("bytes", ColumnType.BYTES).column("share", ColumnType.PERCENT)
                .column("values", ColumnType.INT).column("growing", ColumnType.INT).column("at_template", ColumnType.BYTES);
        acc.entrySet().stream().sorted((x, y) -> Long.compare(y.getValue()[0], x.getValue()[0])).forEach(e -> {
            long[] a = e.getValue();
            b.row(e.getKey(), a[0], p.peakBytes() == 0 ? null : (double) a[0] / p.peakBytes(), a[1], a[2], a[3]);
        });
        b.note("growing: values whose shape changes with " + ProgramSeries.VAR + "; at_template: the same values' bytes in "
                + t.handle() + " (" + ProgramSeries.VAR + "=" + size(s, t) + ")");
        return b.build();
    }

    static Table residuals(List<Residual> rs) {
        Table.Builder t = Table.builder().key("leave_one_out").title("leave-one-out: each loaded size forecast from the others")
                .column("n", ColumnType.INT).column("module", ColumnType.STRING)
                .column("peak_bytes", ColumnType.BYTES).column("peak_forecast", ColumnType.BYTES)
                .column("peak_error", ColumnType.BYTES).column("peak_error_fraction", ColumnType.PERCENT)
                .column("needs_bytes", ColumnType.BYTES).column("needs_forecast", ColumnType.BYTES)
                .column("needs_error", ColumnType.BYTES).column("needs_error_fraction", ColumnType.PERCENT)
                .column("why", ColumnType.NOTE);
        double worst = 0;
        for (Residual r : rs) {
            t.row(r.n(), r.handle(), r.peakActual(), r.peakForecast(), r.peakError(), r.peakErrorFraction(),
                    r.needsActual(), r.needsForecast(), r.needsError(), r.needsErrorFraction(), r.why());
            if (r.peakErrorFraction() != null) worst = Math.max(worst, Math.abs(r.peakErrorFraction()));
        }
        rs.stream().map(Residual::why).filter(w -> w != null).distinct().forEach(w -> t.note("no forecast: " + w));
        if (rs.stream().anyMatch(r -> r.peakForecast() != null))
            t.note(String.format(Locale.ROOT, "the worst peak error is %.2f%%: how far to trust the forecast between and near the loaded sizes", 100 * worst));
        return t.build();
    }

    /** Each value's law, largest at {@code p.n()} first; {@code limit} rows (-1: all). */
    static Table laws(ProgramSeries s, Prediction p, int limit) {
        HloModule m = p.module();
        Law[] law = lawsOf(s, p.template());
        List<Integer> order = new ArrayList<>();
        for (int j = 0; j < law.length; j++) order.add(j);
        order.sort(Comparator.comparingLong((Integer j) -> -m.values().get(j).size()).thenComparingInt(j -> j));
        Table.Builder t = Table.builder().key("laws").title("laws (bytes at " + ProgramSeries.VAR + "=" + p.n() + ", largest first)")
                .column("value", ColumnType.STRING).column("shape", ColumnType.STRING).column("bytes_law", ColumnType.STRING)
                .column("coefficients", ColumnType.LIST).column("bytes", ColumnType.BYTES).column("varies", ColumnType.BOOL)
                .column("allocation", ColumnType.INT).column("role", ColumnType.STRING).column("op_name", ColumnType.STRING);
        int shown = 0, varying = 0;
        for (int j : order) {
            if (law[j].varies()) varying++;
            if (limit >= 0 && shown >= limit) continue;
            shown++;
            HloValue v = m.values().get(j);
            MatchKey k = ModuleDiff.keyOf(p.template(), p.template().values().get(j));
            double[] c = law[j].coefficients();
            List<Object> cs = null;
            if (c != null) {
                cs = new ArrayList<>();
                for (double x : c) cs.add(x == Math.rint(x) && Math.abs(x) < 1e15 ? (Object) (long) x : (Object) x);
            }
            t.row(v.label(), law[j].shapeText(ProgramSeries.VAR), law[j].bytesText(ProgramSeries.VAR), cs, v.size(), law[j].varies(),
                    (long) v.allocation(), k.role().word(), k.opGroup());
        }
        t.note(varying + " of " + law.length + " values change with " + ProgramSeries.VAR + "; coefficients: bytes = c0 + c1·N + c2·N² ...");
        if (limit >= 0 && law.length > shown) t.note((law.length - shown) + " more rows (forecast ... limit -1 lists all)");
        return t.build();
    }

    /** Per value of {@code template} (in its order), its law. */
    private static Law[] lawsOf(ProgramSeries s, HloModule template) { return s.lawsOf(s.modules().indexOf(template)); }

    /** {@code forecast fit}: the largest size that fits, each way, and the named size's step when one is named. */
    static List<Output> fit(ProgramSeries s, Capacity c, List<Largest> largest, Prediction named, Fit.Step step,
                            int others) {
        Table.Builder t = Table.builder().key("largest_n_that_fits").title("largest " + ProgramSeries.VAR + " that fits (" + s.dimension() + ")")
                .column("basis", ColumnType.STRING).column("largest_n", ColumnType.INT).column("bytes", ColumnType.BYTES)
                .column("next_n", ColumnType.INT).column("next_bytes", ColumnType.BYTES).column("offered_bytes", ColumnType.BYTES);
        for (Largest l : largest)
            t.row(l.basis(), l.largest() < 0 ? null : l.largest(), l.bytes() < 0 ? null : l.bytes(), l.next() < 0 ? null : l.next(),
                    l.nextBytes() < 0 ? null : l.nextBytes(), c.offeredBytes());
        t.note("capacity: " + c.source() + (c.reservedBytes() > 0 ? "; offered " + Units.human(c.offeredBytes()) : ""));
        t.note("sizes step by " + s.period() + "; next_n is the first that does not fit");
        if (largest.stream().anyMatch(l -> l.largest() >= 0 && l.next() < 0))
            t.note("where next_n is empty every size searched fits: the search stops at 2^40 steps or where a size passes 2^56 bytes");
        t.note(others == 0 ? "no other program is loaded: with the arrays fit holds is the program alone"
                : "with the arrays fit holds: after the " + others + " other loaded program" + (others == 1 ? "" : "s")
                + ", their parameters and outputs kept, as 'fit' runs them");
        List<Output> out = new ArrayList<>(List.of(t.build()));
        if (named != null) {
            Table.Builder n = Table.builder().key("at_n").title("at " + ProgramSeries.VAR + "=" + named.n())
                    .column("program", ColumnType.STRING).column("needs_bytes", ColumnType.BYTES).column("peak_bytes", ColumnType.BYTES)
                    .column("held_before_bytes", ColumnType.BYTES).column("total_bytes", ColumnType.BYTES)
                    .column("headroom_bytes", ColumnType.BYTES).column("fits", ColumnType.BOOL);
            n.row(named.module().handle(), named.needsBytes(), named.peakBytes(), step.heldBeforeBytes(), step.totalBytes(),
                    -step.overBytes(), step.fits());
            out.add(n.build());
        }
        return out;
    }
}
