package bufq.analysis.forecast;

import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.Fit;
import bufq.analysis.fit.Keep;
import bufq.analysis.fit.Program;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.ProgramSizes;
import bufq.table.Output;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * How big can it get: one program loaded at several sizes (a batch, a sequence length), its peak
 * and {@code needs_bytes} forecast at a size never compiled. The values pair across the sizes as
 * {@code diff} pairs them, each dimension of each shape is fitted as an affine law of the size
 * (two sizes fit, more check), and the program at {@code N} is swept as a compiled module is
 * ({@link Projection}). Every forecast comes with each figure's leave-one-out residual on the
 * loaded sizes. Modules that are no series are refused ({@link NotASeries}): never a number from
 * a bad fit. Immutable.
 */
public final class Forecast {
    private final ProgramSeries series;

    private Forecast(ProgramSeries series) {
        this.series = series;
    }

    /**
     * The series of {@code modules} (one program at two sizes or more).
     *
     * @param dimension the input dimension that varies, {@code NAME[AXIS]} or {@code NAME}; null to find it
     * @throws NotASeries saying which values did not pair or fit, and why
     */
    public static Forecast of(List<HloModule> modules, String dimension) throws NotASeries {
        try {
            return new Forecast(ProgramSeries.of(modules, dimension));
        } catch (NotASeries e) {
            // A TPU compile prefetches into VMEM, adds sync flags and async-copy tuples in numbers that
            // change with the size: each memory space is paired on its own, what did not pair said.
            if (!ProgramSeries.pairsBySpace(modules)) throw e;
            return new Forecast(SpaceSeries.of(modules, dimension, e));
        }
    }

    /**
     * The loaded modules split into the series (the current module's program, when it is loaded at
     * two sizes or more; else the one program that is) and the others, in loaded order.
     */
    public record Loaded(List<HloModule> series, List<HloModule> others) {}

    /** @throws NotASeries when no program, or more than one and none current, is loaded at two sizes */
    public static Loaded split(List<HloModule> loaded, HloModule current) throws NotASeries {
        Map<String, List<HloModule>> byName = new LinkedHashMap<>();
        for (HloModule m : loaded) byName.computeIfAbsent(m.info().name(), k -> new ArrayList<>()).add(m);
        String name = null;
        if (current != null && byName.getOrDefault(current.info().name(), List.of()).size() > 1) name = current.info().name();
        if (name == null) {
            List<String> many = byName.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey).toList();
            if (many.size() > 1)
                throw new NotASeries("several programs are loaded at several sizes (" + String.join(", ", many)
                        + "); 'use' a module of the one to forecast", null);
            if (many.isEmpty())
                throw new NotASeries(loaded.isEmpty() ? "no module is loaded; load one program compiled at two sizes or more"
                        : "no program is loaded at two sizes or more (" + String.join(", ", byName.keySet()) + ": one each);"
                        + " load the same program compiled at other sizes, e.g. bufq b8/ b16/ b32/", null);
            name = many.get(0);
        }
        List<HloModule> others = new ArrayList<>();
        for (HloModule m : loaded) if (!m.info().name().equals(name)) others.add(m);
        return new Loaded(byName.get(name), others);
    }

    /** The dimension followed, as {@code NAME[AXIS]}. */
    public String dimension() { return series.dimension(); }

    /** The loaded sizes, smallest first. */
    public long[] sizes() { return series.ns().clone(); }

    /** The loaded modules, smallest size first. */
    public List<HloModule> modules() { return series.modules(); }

    /** The sizes at which every shape is whole are {@code sizes()[0] + k·period()}. */
    public long period() { return series.period(); }


    /**
     * The forecast at {@code n}, built on the loaded size nearest it.
     *
     * @throws NotASeries when a shape is not whole at {@code n} (a size between the series' steps)
     */
    public Prediction at(long n) throws NotASeries {
        Prediction p = tryAt(n);
        if (p != null) return p;
        if (n > 0 && whole(n))
            throw new NotASeries(ProgramSeries.VAR + " = " + n + " is past what bufq sizes: a value or their sum would pass"
                    + " 2^56 bytes (64 PiB)", null);
        long step = period(), first = Math.floorMod(series.ns()[0] - 1, step) + 1;
        throw new NotASeries(ProgramSeries.VAR + " = " + n + " gives a shape that is not whole (or below 0): the loaded sizes "
                + Law.join(series.ns()) + " step by " + step + (step > 1 ? ", so take " + ProgramSeries.VAR + " = " + first + " + k·" + step : "")
                + (n <= 0 ? "; a size is 1 or more" : ""), null);
    }

    /** Whether every shape is whole at {@code n} (its bytes may still overflow). */
    private boolean whole(long n) {
        try {
            for (Law l : series.laws()) if (l.shapeAt(n) == null) return false;
            return true;
        } catch (ArithmeticException e) {
            return true;
        }
    }

    /** Bytes past this are refused, as the readers refuse them: the sweeps' sums stay far below a long. */
    static final long MAX_BYTES = 1L << 56;

    /** The forecast at {@code n}, or null when a shape is not whole there or a size overflows. */
    Prediction tryAt(long n) {
        if (n <= 0) return null;
        int template = nearest(n);
        HloModule m;
        try {
            m = Projection.at(series, template, n);
        } catch (ArithmeticException e) {
            return null;
        }
        if (m == null) return null;
        long total = 0;
        for (HloValue v : m.values()) {
            total += v.size();   // each at most 2^56 below: no overflow before the check
            if (v.size() > MAX_BYTES || total > MAX_BYTES << 5) return null;
        }
        Liveness l;
        try {
            l = Liveness.of(m);
        } catch (ArithmeticException e) {
            return null;
        }
        int t = l.peakTime();
        String ins = t >= 0 && t < m.sequence().size() ? m.sequence().get(t) : null;
        return new Prediction(n, m, series.modules().get(template), l.peakBytes(), t, ins, l.liveBytes(t),
                ProgramSizes.of(m).needsBytes());
    }

    /** The loaded size nearest {@code n}; the larger on a tie (a forecast upwards builds on the biggest). */
    private int nearest(long n) {
        int best = 0;
        for (int k = 1; k < series.ns().length; k++)
            if (Math.abs(series.ns()[k] - n) <= Math.abs(series.ns()[best] - n)) best = k;
        return best;
    }


    /** Each loaded size forecast from the others (leave-one-out); with two sizes none can be. */
    public List<Residual> residuals() {
        List<Residual> out = new ArrayList<>();
        List<HloModule> ms = series.modules();
        for (int k = 0; k < ms.size(); k++) {
            HloModule m = ms.get(k);
            long peak = Liveness.of(m).peakBytes(), needs = ProgramSizes.of(m).needsBytes();
            if (ms.size() < 3) {
                out.add(new Residual(series.ns()[k], m.handle(), peak, null, needs, null, "needs three sizes: the other one alone fits no law"));
                continue;
            }
            List<HloModule> others = new ArrayList<>(ms);
            others.remove(k);
            try {
                Prediction p = Forecast.of(others, series.dimension()).at(series.ns()[k]);
                out.add(new Residual(series.ns()[k], m.handle(), peak, p.peakBytes(), needs, p.needsBytes(), null));
            } catch (NotASeries e) {
                out.add(new Residual(series.ns()[k], m.handle(), peak, null, needs, null, e.getMessage()));
            }
        }
        return out;
    }

    /** The report {@code forecast at N} prints: the forecast, what holds its peak, the residuals, the laws ({@code limit} rows, -1 all). */
    public List<Output> report(long n, int limit) throws NotASeries {
        return ForecastTables.report(series, at(n), residuals(), limit);
    }

    /** Every value's law, largest at {@code n} first (the JSON rows of {@code bufq.analysis.forecast}). */
    public List<Output> laws(long n) throws NotASeries {
        return List.of(ForecastTables.laws(series, at(n), -1));
    }

    ProgramSeries series() { return series; }


    /**
     * The largest size whose forecast fits {@code capacity}: by {@code needs_bytes} alone (what
     * {@code fit} checks), by the occupancy peak, and with what {@code others} (loaded programs that
     * run before it, in {@code fit}'s order) keep held under {@code keep}. Assumes the figures grow
     * with the size, as every law of a series does.
     */
    public List<Largest> largest(Capacity capacity, List<Program> others, Keep keep) {
        long offered = capacity.offeredBytes();
        // the three searches ask for the same sizes: their figures are kept (not the modules, which may be large)
        Map<Long, long[]> seen = new HashMap<>();
        LongFunction<long[]> figures = n -> seen.computeIfAbsent(n, x -> {
            Prediction p = tryAt(x);
            return p == null ? null : new long[] {p.needsBytes(), p.peakBytes(), fitAt(p, others, keep, capacity).totalBytes()};
        });
        List<Largest> out = new ArrayList<>();
        out.add(search("needs_bytes, alone", figures, 0, offered));
        out.add(search("peak, alone", figures, 1, offered));
        out.add(search("needs_bytes, with the arrays fit holds", figures, 2, offered));
        return out;
    }

    /** The tables {@code forecast fit} prints; {@code named} and {@code step} null when no size is named. */
    public List<Output> fitReport(Capacity capacity, List<Program> others, Keep keep, Prediction named, Fit.Step step) {
        return ForecastTables.fit(series, capacity, largest(capacity, others, keep), named, step, others.size());
    }

    /**
     * {@code forecast fit [at N]}, for every client: the tables, and the step of the program at
     * {@code n} after {@code others} (null when {@code n} is 0: no size named).
     */
    public record FitAnswer(List<Output> tables, Prediction named, Fit.Step step) {
        /** One line saying by how much the size named does not fit, or null when it fits or none is named. */
        public String failure() {
            if (step == null || step.fits()) return null;
            return named.module().handle() + " needs " + Units.human(step.totalBytes())
                    + (step.heldBeforeBytes() > 0 ? " with the arrays held before it" : "") + ", over the "
                    + Units.human(step.offeredBytes()) + " offered by " + Units.human(step.overBytes());
        }
    }

    public FitAnswer fit(long n, List<HloModule> others, Capacity capacity) throws NotASeries {
        List<Program> programs = new ArrayList<>();
        for (HloModule m : others) programs.add(Program.of(m));
        Prediction named = n > 0 ? at(n) : null;
        Fit.Step step = named == null ? null : fitAt(named, programs, Keep.ALL, capacity);
        return new FitAnswer(fitReport(capacity, programs, Keep.ALL, named, step), named, step);
    }

    /** What {@code fit} sees at {@code n}: the forecast program after {@code others}, as a step of its running order. */
    public Fit.Step fitAt(Prediction p, List<Program> others, Keep keep, Capacity capacity) {
        List<Program> all = new ArrayList<>(others);
        all.add(Program.of(p.module()));
        List<Fit.Step> steps = Fit.steps(all, capacity, keep);
        return steps.get(steps.size() - 1);
    }

    /** Steps past this are not searched: the bytes pass the readers' bounds long before. */
    private static final long MAX_STEPS = 1L << 40;

    /**
     * The largest whole size {@code base + k·period} whose {@code bytes} fit {@code offered}: doubling
     * {@code k} until one does not fit (or is no longer whole, or overflows), then halving the gap.
     */
    private Largest search(String basis, LongFunction<long[]> figures, int which, long offered) {
        long step = period(), first = Math.floorMod(series.ns()[0] - 1, step) + 1;
        long base = -1;
        for (long k = 0; k < 64 && base < 0; k++) if (figures.apply(first + k * step) != null) base = first + k * step;
        if (base < 0) return new Largest(basis, -1, -1, -1, -1);
        long[] lo = figures.apply(base);
        if (lo[which] > offered) return new Largest(basis, -1, -1, base, lo[which]);
        long good = 0, bad = -1;
        for (long k = 1; k <= MAX_STEPS; k *= 2) {
            long[] f = at(figures, base, k, step);
            if (f == null || f[which] > offered) {
                bad = k;
                break;
            }
            good = k;
        }
        if (bad < 0) return new Largest(basis, base + good * step, at(figures, base, good, step)[which], -1, -1);
        while (bad - good > 1) {
            long mid = good + (bad - good) / 2;
            long[] f = at(figures, base, mid, step);
            if (f == null || f[which] > offered) bad = mid;
            else good = mid;
        }
        long[] g = at(figures, base, good, step), b = at(figures, base, bad, step);
        return new Largest(basis, base + good * step, g[which], b == null ? -1 : base + bad * step, b == null ? -1 : b[which]);
    }

    /** The figures at {@code base + k·step}; null when that is no whole size or overflows. */
    private static long[] at(LongFunction<long[]> figures, long base, long k, long step) {
        long n = size(base, k, step);
        return n < 0 ? null : figures.apply(n);
    }

    /** {@code base + k·step}, or -1 (no size) when it overflows. */
    private static long size(long base, long k, long step) {
        try {
            return Math.addExact(base, Math.multiplyExact(k, step));
        } catch (ArithmeticException e) {
            return -1;
        }
    }

}
