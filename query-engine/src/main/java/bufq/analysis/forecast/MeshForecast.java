package bufq.analysis.forecast;

import bufq.eval.Catalog;
import bufq.analysis.fit.Capacity;
import bufq.lang.QueryException;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;
import bufq.analysis.sharding.HloSharding;
import bufq.analysis.sharding.Shardings;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import bufq.units.Units;
import bufq.analysis.whatif.Edit;
import bufq.analysis.whatif.EditSweep;
import bufq.analysis.whatif.Outcome;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * How many chips: one SPMD compile's per-device bytes on a mesh of another size. Its values fall
 * into four parts. Entry parameters cut over every device follow the sharding's law (a 1/N piece
 * each: global bytes over N); parameters cut fewer ways are assumed to be cut further as the mesh
 * grows (every mesh axis growing alike); values of a sharded parameter's per-device shape and dtype
 * that are no parameter (its gradient, update, a loop's copies) are assumed to follow it; replicated
 * parameters stay whole by the law; every other value (activations, collective buffers, gathered
 * weights) is held at its size, which is what this cannot know: the partitioner re-cuts
 * temporaries at another mesh size. The peak at N is the module swept with the parts scaled (the
 * {@code whatif} sweep), under the loaded schedule. Every figure is the device memory's (colour 0). Immutable.
 */
public final class MeshForecast {
    /** The parts, in the order printed. */
    public enum Part {
        SHARDED("law", "entry parameters cut over every device: each device holds a 1/N piece"),
        UNDER_SHARDED("assumed", "entry parameters cut fewer ways than the mesh: assumed cut further as every mesh axis grows alike"),
        COPIES("assumed", "values of a sharded parameter's per-device shape and dtype (gradients, updates, a loop's copies): assumed to follow it"),
        REPLICATED("law", "replicated entry parameters: whole on every device at any N"),
        OTHER("unknown", "every other value (activations, collective buffers, gathered weights): held at its size here; the partitioner re-cuts them at another mesh size");

        final String basis;
        final String what;

        Part(String basis, String what) {
            this.basis = basis;
            this.what = what;
        }
    }

    /** The values of one part and their per-device bytes now. */
    public record Share(Part part, List<HloValue> values, long bytes) {
        /** Their bytes per device on {@code n} devices of a mesh of {@code devices}. */
        public long bytesAt(long n, long devices) {
            return follows() ? Math.round((double) bytes * devices / n) : bytes;
        }

        /** Whether the part scales as 1/N. */
        public boolean follows() { return part == Part.SHARDED || part == Part.UNDER_SHARDED || part == Part.COPIES; }
    }

    /** The module at {@code n} devices: the parts' bytes and the swept peak. */
    public record At(long n, long peakBytes, long[] partBytes) {}

    private final HloModule module;
    private final long devices;
    private final List<Share> shares;
    private final Catalog catalog;
    private final TilingModel tiling;
    private final Function<String, TilingModel> tilings;

    private MeshForecast(HloModule module, long devices, List<Share> shares, Catalog catalog, TilingModel tiling,
                         Function<String, TilingModel> tilings) {
        this.module = module;
        this.devices = devices;
        this.shares = List.copyOf(shares);
        this.catalog = catalog;
        this.tiling = tiling;
        this.tilings = tilings;
    }

    /**
     * The mesh forecast of {@code m}.
     *
     * @throws IllegalArgumentException when the module's sharding is unknown or it has no peak, saying why
     */
    public static MeshForecast of(HloModule m, Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings) {
        Shardings s = Shardings.of(m);
        if (!s.known()) throw new IllegalArgumentException(m.handle() + ": no sharding to forecast other mesh sizes from: " + s.missing());
        if (Liveness.of(m).peakTime() < 0) throw new IllegalArgumentException(m.handle() + ": no live ranges, so no peak to forecast");
        long n = s.partitions() * s.replicas();
        List<List<HloValue>> parts = new ArrayList<>();
        for (int i = 0; i < Part.values().length; i++) parts.add(new ArrayList<>());
        Set<String> shardedShapes = new HashSet<>();
        for (HloValue v : m.values()) {
            HloSharding h = s.shardingOf(v);
            if (v.color() != 0) continue;
            if (h == null || v.shape() == null || !v.shape().isArray()) continue;
            Part p = h.replicated() ? Part.REPLICATED : h.shards() >= n ? Part.SHARDED : h.shards() > 1 ? Part.UNDER_SHARDED : Part.REPLICATED;
            if (h.kind() != HloSharding.Kind.TILED && h.kind() != HloSharding.Kind.REPLICATED) p = Part.OTHER;
            parts.get(p.ordinal()).add(v);
            if (p == Part.SHARDED || p == Part.UNDER_SHARDED) shardedShapes.add(key(v));
        }
        Set<HloValue> placed = new HashSet<>();
        for (List<HloValue> l : parts) placed.addAll(l);
        for (HloValue v : m.values()) {
            if (placed.contains(v) || v.color() != 0) continue;
            boolean copy = v.shape() != null && v.shape().isArray() && s.parameterOf(v) == null && shardedShapes.contains(key(v));
            parts.get((copy ? Part.COPIES : Part.OTHER).ordinal()).add(v);
        }
        List<Share> shares = new ArrayList<>();
        for (Part p : Part.values()) {
            List<HloValue> l = parts.get(p.ordinal());
            shares.add(new Share(p, l, l.stream().mapToLong(HloValue::size).sum()));
        }
        return new MeshForecast(m, n, shares, catalog, tiling, tilings);
    }

    private static String key(HloValue v) {
        return v.shape().dtype() + Arrays.toString(v.shape().dims());
    }

    /** The devices the module was compiled for. */
    public long devices() { return devices; }

    /** The parts, in {@link Part} order. */
    public List<Share> shares() { return shares; }

    /** The module on {@code n} devices. */
    public At at(long n) throws QueryException {
        if (n <= 0) throw new IllegalArgumentException("a device count is 1 or more, not " + n);
        long[] bytes = new long[shares.size()];
        for (int i = 0; i < bytes.length; i++) bytes[i] = shares.get(i).bytesAt(n, devices);
        if (n == devices) return new At(n, Liveness.of(module).peakBytes(0), bytes);
        List<Long> ids = new ArrayList<>();
        for (Share x : shares) if (x.follows()) for (HloValue v : x.values()) ids.add(v.id());
        if (ids.isEmpty()) return new At(n, Liveness.of(module).peakBytes(0), bytes);
        // the factor to nine decimals, as the forecast prints it: the figures are the printed edit's
        Edit edit = Edit.Scale.of(Edit.Where.ofIds(ids), Double.parseDouble(factor((double) devices / n)));
        Outcome o = EditSweep.run(module, List.of(edit), catalog, tiling, tilings);
        return new At(n, o.after().peakBytes(0), bytes);
    }

    /** The fewest devices, from 1 to {@code max}, at which the peak fits {@code c}; -1 when none does. */
    public long smallestFitting(Capacity c, long max) throws QueryException {
        if (at(max).peakBytes() > c.offeredBytes()) return -1;
        long lo = 1, hi = max;   // the peak never grows with N: only the scaled parts change, and they shrink
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            if (at(mid).peakBytes() <= c.offeredBytes()) hi = mid;
            else lo = mid + 1;
        }
        return lo;
    }

    /** The largest mesh {@code smallestFitting} tries. */
    public static final long MAX_DEVICES = 1 << 16;

    private static String factor(double d) {
        String s = String.format(Locale.ROOT, "%.9f", d);
        return s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /** What every figure here is; said under each table. */
    static final String BASIS = "a bound under the loaded schedule: the partitioner, scheduler and buffer assignment do not re-run at N";

    /** The report at {@code n} devices. */
    public List<Output> report(long n) throws QueryException {
        At a = at(n);
        long now = Liveness.of(module).peakBytes(0);
        Table.Builder t = Table.builder().key("forecast_chips").title("forecast chips (" + module.handle() + ": compiled for " + devices + " devices, at " + n + ")")
                .column("part", ColumnType.STRING).column("values", ColumnType.INT).column("bytes_now", ColumnType.BYTES)
                .column("bytes_at_n", ColumnType.BYTES).column("basis", ColumnType.STRING).column("what", ColumnType.NOTE);
        long sumNow = 0, sumAt = 0;
        for (int i = 0; i < shares.size(); i++) {
            Share x = shares.get(i);
            t.row(x.part().name().toLowerCase(Locale.ROOT).replace('_', ' '), (long) x.values().size(), x.bytes(), a.partBytes()[i],
                    x.part().basis, x.part().what);
            sumNow += x.bytes();
            sumAt += a.partBytes()[i];
        }
        t.note("peak per device: " + Units.human(now) + " on " + devices + " devices (the dump) -> " + Units.human(a.peakBytes()) + " on " + n
                + " (the module swept with the law and assumed parts scaled by " + devices + "/" + n + ")");
        t.note("bytes: every value's assigned bytes per device, live or not (" + Units.human(sumNow) + " now, " + Units.human(sumAt) + " at " + n
                + "); basis: law from the sharding, assumed, or unknown (held at its size)");
        t.note("cannot know: temporaries whose size the partitioner sets (a batch cut over more devices shrinks activations; "
                + "gathered weights stay whole); an uneven split is padded by XLA, not here");
        t.note(BASIS);
        return List.of(t.build());
    }

    /** The fewest devices that fit {@code c}, with the peak there and one device fewer. */
    public List<Output> fitReport(Capacity c) throws QueryException {
        long best = smallestFitting(c, MAX_DEVICES);
        Table.Builder t = Table.builder().key("forecast_chips_fit").title("forecast chips fit (" + module.handle() + ": compiled for " + devices + " devices)")
                .column("devices", ColumnType.INT).column("peak_bytes", ColumnType.BYTES).column("offered_bytes", ColumnType.BYTES)
                .column("fits", ColumnType.BOOL);
        if (best > 1) t.row(best - 1, at(best - 1).peakBytes(), c.offeredBytes(), false);
        if (best > 0) t.row(best, at(best).peakBytes(), c.offeredBytes(), true);
        else {
            At far = at(MAX_DEVICES);
            t.row(MAX_DEVICES, far.peakBytes(), c.offeredBytes(), false);
            t.note("no mesh up to " + MAX_DEVICES + " devices fits: what stays whole (replicated parameters, other values live at the peak)"
                    + " holds " + Units.human(far.peakBytes()) + " per device");
        }
        if (best > 0) t.note("the fewest devices whose forecast peak fits " + Units.human(c.offeredBytes()) + " (" + c.source() + "): " + best);
        t.note("the peak at N is the module swept with the sharded parameters and their copies at 1/N (law) or assumed so; other values "
                + "held at their size: the partitioner may shrink activations over more devices, so fewer devices may fit than said");
        t.note(BASIS);
        return List.of(t.build());
    }
}
