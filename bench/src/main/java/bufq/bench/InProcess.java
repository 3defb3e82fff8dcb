package bufq.bench;

import bufq.analysis.peak.Peak;
import bufq.analysis.why.Why;
import bufq.analysis.timeline.Timeline;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.why.WhyReport;
import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.Query;
import bufq.format.FormatOptions;
import bufq.format.Formatter;
import bufq.format.Formatters;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.analysis.whatif.EditParser;
import bufq.analysis.whatif.EditSweep;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.LongSupplier;
import java.io.IOException;
import java.util.Locale;

/**
 * Warm, in-process figures for one input, run in a JVM of its own so heap and VmHWM belong to that
 * input alone: {@code InProcess PATH [--runs N] [--warmup N]}. Prints {@code key=value} lines that
 * {@link Harness} collects. Timings are medians; the module of the last load is the one measured
 * for retained heap and queried.
 */
public final class InProcess {
    /** The fixed query set; {@code MID} is replaced by the middle step. */
    static final Formatter TABLE = Formatters.byName("table");

    static final List<Map.Entry<String, String>> QUERIES = List.of(
            Map.entry("q_live_mid", "values where live at MID"),
            Map.entry("q_live_peak_sum", "values where live at peak show sum(logical_size)"),
            Map.entry("q_regex", "values where name ~ \"fusion\""),
            Map.entry("q_group_color", "values group by color show color, count(), sum(size)"),
            Map.entry("q_steps_top", "steps order by live_bytes desc limit 5"));

    private InProcess() {}

    public static void main(String[] args) throws Exception {
        try {
            measure(args);
        } catch (Exception | OutOfMemoryError e) {
            System.out.println("error=" + oneLine(e));
            System.exit(1);
        }
    }

    private static void measure(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        int runs = 5, warmup = 2;
        for (int i = 1; i + 1 < args.length; i += 2) {
            if (args[i].equals("--runs")) runs = Integer.parseInt(args[i + 1]);
            if (args[i].equals("--warmup")) warmup = Integer.parseInt(args[i + 1]);
        }
        PrintStream out = System.out;
        List<Path> paths = List.of(path);
        out.println("text_bytes=" + textBytes(path));
        long baseline = usedHeapAfterGc();

        HloModule m = null;
        for (int i = 0; i < warmup; i++) m = DumpLoader.load(paths).get(0);
        long[] loads = new long[runs], cpu = new long[runs];
        for (int i = 0; i < runs; i++) {
            m = null;   // never hold two modules: the 1M input must fit in -Xmx2g by itself
            // Each timed load starts from a collected heap, as a session's first load does (the JIT
            // stays warm): otherwise the previous module's garbage decides when collections fall.
            System.gc();
            long c0 = processCpuNanos(), t0 = System.nanoTime();
            m = DumpLoader.load(paths).get(0);
            loads[i] = System.nanoTime() - t0;
            cpu[i] = processCpuNanos() - c0;
        }
        out.println("load_ms=" + ms(median(loads)));
        // CPU time of the whole JVM (all threads, GC and JIT included) during a load: on a shared
        // machine this moves less than wall time when other work takes the cores.
        out.println("load_cpu_ms=" + ms(median(cpu)));
        out.println("load_min_ms=" + ms(Arrays.stream(loads).min().orElse(0)));
        out.println("retained_bytes=" + (usedHeapAfterGc() - baseline));
        out.println("values=" + m.values().size());
        out.println("steps=" + m.steps());
        out.println("warnings=" + m.warnings().size());
        if (!m.warnings().isEmpty()) out.println("first_warning=" + m.warnings().get(0));

        EvalContext ctx = new EvalContext(m, TilingModel.TPU);
        for (Map.Entry<String, String> q : QUERIES) {
            String text = q.getValue().replace("MID", Integer.toString(Math.max(0, m.steps() / 2)));
            try {
                Query query = Query.compile(text, Catalog.standard());
                int[] rows = new int[1];
                HloModule mm = m;
                long t = time(runs * 2, 3, () -> {
                    try {
                        Table table = query.run(ctx);
                        rows[0] = table.size();
                        // What the shell then does: print the first 200 rows (its default maxrows) as a
                        // table. Part of the figure, as rows are computed when read (Table.lazy).
                        StringBuilder sb = new StringBuilder();
                        TABLE.write(table.limit(200), FormatOptions.DEFAULT, sb);
                        if (sb.length() == 0) throw new IllegalStateException("empty rendering");
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    return mm.steps();
                });
                out.println(q.getKey() + "_ms=" + ms(t));
                out.println(q.getKey() + "_rows=" + rows[0]);
            } catch (Exception | LinkageError e) {
                out.println(q.getKey() + "_error=" + oneLine(e));
            }
        }
        analysis(out, m, "peak", runs);
        analysis(out, m, "timeline", runs);
        why(out, m, runs);
        whatif(out, m, runs);
        out.println("vm_hwm_kb=" + vmHwmKb());
        java.lang.ref.Reference.reachabilityFence(m);
    }

    /**
     * {@code why} as the shell answers it, the report's tables computed and printed: on the largest
     * value live at the peak ({@code why_ms}), and on every value live at the peak, what {@code why
     * values where live at peak} prints ({@code why_batch_ms}, fewer runs). Each with the thread's own
     * CPU time, steadier than wall time on a shared machine. The values are chosen outside the timing.
     */
    private static void why(PrintStream out, HloModule m, int runs) {
        try {
            List<HloValue> live = LiveValues.at(m, Liveness.of(m).peakTime());
            if (live.isEmpty()) {
                out.println("why_error=nothing live at the peak");
                return;
            }
            HloValue biggest = live.get(0);
            for (HloValue v : live) if (v.size() > biggest.size()) biggest = v;
            timeWhy(out, "why", m, List.of(biggest), runs * 2, 3);
            out.println("why_batch_values=" + live.size());
            timeWhy(out, "why_batch", m, live, Math.max(3, runs / 2), 1);
        } catch (RuntimeException e) {
            out.println("why_error=" + oneLine(e));
        }
    }

    private static void timeWhy(PrintStream out, String key, HloModule m, List<HloValue> values, int runs, int warmup) {
        var threads = ManagementFactory.getThreadMXBean();
        long[] cpu = new long[runs];
        int[] k = {0};
        long t = time(runs, warmup, () -> {
            long c0 = threads.getCurrentThreadCpuTime();
            StringBuilder sb = new StringBuilder();
            for (WhyReport r : Why.of(m, values))
                for (Output o : r.tables()) TABLE.write((Table) o, FormatOptions.DEFAULT, sb);
            if (k[0] < warmup) k[0]++;
            else cpu[k[0]++ - warmup] = threads.getCurrentThreadCpuTime() - c0;
            return sb.length();
        });
        out.println(key + "_ms=" + ms(t));
        out.println(key + "_cpu_ms=" + ms(median(cpu)));
    }

    /** {@code Peak.report} or {@code Timeline.chart} on {@code m}, timed. */
    private static void analysis(PrintStream out, HloModule m, String which, int runs) {
        try {
            long t = time(runs * 2, 2, () -> which.equals("peak")
                    ? Peak.report(m, OptionalInt.empty(), 16L * 1024, TilingModel.TPU).size()
                    : Timeline.chart(m, OptionalInt.empty(), 100).size());
            out.println(which + "_ms=" + ms(t));
        } catch (RuntimeException e) {
            out.println(which + "_error=" + oneLine(e));
        }
    }

    /** The edits of the what-if bench row: rematerialise the large values at the peak, halve the f32 ones. */
    static final String WHATIF = "remat where live at peak and size > 1MiB; scale where dtype = \"f32\" by 0.5";

    /** {@code whatif} on the loaded module: parse, select, edit, recompute occupancy and the peak. */
    private static void whatif(PrintStream out, HloModule m, int runs) {
        try {
            var threads = ManagementFactory.getThreadMXBean();
            long[] cpu = new long[runs * 2];
            int[] k = {0};
            long t = time(runs * 2, 2, () -> {
                long c0 = threads.getCurrentThreadCpuTime();
                try {
                    var p = EditParser.parse(WHATIF, Set.copyOf(Catalog.standard().entities()));
                    return EditSweep.run(m, p.edits(), Catalog.standard(), TilingModel.TPU, n -> null).after().peakTime();
                } catch (QueryException e) {
                    throw new IllegalStateException(e.getMessage());
                } finally {
                    if (k[0] < 2) k[0]++;   // the warm-up calls
                    else cpu[k[0]++ - 2] = threads.getCurrentThreadCpuTime() - c0;
                }
            });
            out.println("whatif_ms=" + ms(t));
            // The thread's own CPU time (whatif runs on one thread): steadier than wall time on a busy machine.
            out.println("whatif_cpu_ms=" + ms(median(cpu)));
        } catch (RuntimeException e) {
            out.println("whatif_error=" + oneLine(e));
        }
    }

    /** Median wall time of {@code runs} calls after {@code warmup} unmeasured ones. */
    static long time(int runs, int warmup, LongSupplier body) {
        long sink = 0;
        for (int i = 0; i < warmup; i++) sink += body.getAsLong();
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            sink += body.getAsLong();
            t[i] = System.nanoTime() - t0;
        }
        if (sink == 42) System.out.print("");   // keep the results alive
        return median(t);
    }

    static long median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static String ms(long nanos) { return String.format(Locale.ROOT, "%.3f", nanos / 1e6); }

    static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static long vmHwmKb() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("VmHWM:")) return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        } catch (Exception e) {
            return -1;
        }
        return -1;
    }

    /** Size of the dump text: a directory's files, or a file with its siblings of the same module prefix. */
    static long textBytes(Path p) throws IOException {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(p)) {
            try (var s = Files.walk(p)) { s.filter(Files::isRegularFile).forEach(files::add); }
        } else {
            String name = p.getFileName().toString();
            int cut = name.lastIndexOf("-buffer-assignment");
            if (cut < 0) cut = name.lastIndexOf("-live-range");
            if (cut < 0) cut = name.lastIndexOf("-memory-usage-report");
            String prefix = cut < 0 ? name : name.substring(0, cut + 1);
            try (var s = Files.list(p.toAbsolutePath().getParent())) {
                s.filter(f -> f.getFileName().toString().startsWith(prefix)).forEach(files::add);
            }
        }
        long n = 0;
        for (Path f : files) n += Files.size(f);
        return n;
    }

    private static String oneLine(Throwable e) {
        Throwable c = e;
        while (c.getCause() != null && c.getCause() != c) c = c.getCause();
        return (c.getClass().getSimpleName() + ": " + c.getMessage()).replace('\n', ' ');
    }
}
