package bufq.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** The markdown report of one harness run: machine, scaling tables, bufq against Python, targets. */
final class Report {
    private final List<Harness.Input> inputs;
    private final Map<String, Map<String, String>> r;
    private final List<String> sizes;
    private final int coldRuns;
    private final StringBuilder md = new StringBuilder();

    private final String loadAtStart;

    Report(List<Harness.Input> inputs, Map<String, Map<String, String>> results, List<String> sizes, int coldRuns,
           String loadAtStart) {
        this.loadAtStart = loadAtStart;
        this.inputs = inputs;
        this.r = results;
        this.sizes = sizes;
        this.coldRuns = coldRuns;
    }

    String markdown() {
        md.append("## Performance\n\n").append(machine(loadAtStart)).append("\n\n");
        md.append("Reproduce with `bench/run` (inputs are generated under `bench/target/generated/` when missing). "
                + "Warm figures: median of several loads/runs in one JVM (`-Xmx2g` and the launcher's `-Xms2g -XX:+UseParallelGC -XX:MaxTenuringThreshold=0`) per input; "
                + "cold figures: median of " + coldRuns + " whole `./bufq -c summary PATH` processes "
                + "(the launcher, with its JVM flags and batch class-data archive). A query's time is compiling it, running it "
                + "and printing the first 200 rows as a table, as the shell does. DtypeSizes in MB are 10^6 bytes.\n\n");
        scaling("four", "Four-file format (jaxlib 0.10, `transformer-12layer` replicated)");
        scaling("single", "Single-file format (old-style peak lines, largest GPU dump of the corpus replicated)");
        List<String> real = new ArrayList<>(), heads = new ArrayList<>();
        for (Harness.Input in : inputs) {
            if ((in.family().equals("corpus") || in.family().equals("28mb")) && r.containsKey(in.id())) {
                real.add(in.id());
                heads.add(in.label());
            }
        }
        table("The largest real dumps and the 28 MB module", real, heads);
        versusPython();
        directory();
        protoLoad();
        yardstick();
        targets();
        batchTargets();
        errors();
        return md.toString();
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim().split(" ")[0];
        } catch (Exception e) {
            return "?";
        }
    }

    private static String machine(String loadAtStart) {
        String cpu = "unknown CPU";
        int cores = Runtime.getRuntime().availableProcessors();
        long memKb = -1;
        try {
            for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (l.startsWith("model name")) { cpu = l.substring(l.indexOf(':') + 1).trim(); break; }
            }
            for (String l : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (l.startsWith("MemTotal:")) memKb = Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        } catch (Exception e) {
            // not Linux: keep the defaults
        }
        String load = "; load average " + loadAtStart + " at the start, " + loadAverage() + " at the end (above the "
                + "core count, other work on the machine inflates wall times; CPU times move less)";
        return String.format(Locale.ROOT, "Machine: %d cores (%s), %.0f GB RAM, Java %s (%s), %s %s; run at %s%s.", cores, cpu,
                memKb / 1048576.0, System.getProperty("java.version"), System.getProperty("java.vm.name"),
                System.getProperty("os.name"), System.getProperty("os.version"),
                java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).withNano(0), load);
    }

    private void scaling(String family, String title) {
        List<String> ids = new ArrayList<>(), heads = new ArrayList<>();
        for (String s : sizes) {
            if (r.containsKey(family + "-" + s)) {
                ids.add(family + "-" + s);
                heads.add(s.toUpperCase(Locale.ROOT) + " values");
            }
        }
        table(title, ids, heads);
    }

    private void table(String title, List<String> ids, List<String> heads) {
        if (ids.isEmpty()) return;
        md.append("### ").append(title).append("\n\n| | ");
        md.append(String.join(" | ", heads)).append(" |\n|---|");
        md.append("---:|".repeat(ids.size())).append('\n');
        row(ids, "values", m -> m.get("warm.values"));
        row(ids, "text size (MB)", m -> mb(m.get("warm.text_bytes")));
        row(ids, "heap of the warm JVM (-Xmx)", m -> m.containsKey("warm.oom_2g") ? "**2g: out of memory**; "
                + m.get("warm.heap") : m.get("warm.heap"));
        row(ids, "load, warm in-process (ms)", m -> fmt(m.get("warm.load_ms")));
        row(ids, "CPU time of the JVM during a load (ms)", m -> fmt(m.get("warm.load_cpu_ms")));
        row(ids, "throughput (MB/s)", m -> throughput(m));
        row(ids, "throughput per CPU second (MB/s)", m -> cpuThroughput(m));
        row(ids, "load, cold `bufq -c summary` process (ms)", m -> fmt(m.get("cold.ms"))
                + (m.get("cold.ms") == null ? "" : " (" + (String.valueOf(coldRuns).equals(m.get("cold.runs"))
                ? "" : "median of " + m.get("cold.runs") + "; ") + "runs " + fmt(m.get("cold.ms_min")) + "-" + fmt(m.get("cold.ms_max")) + ")"));
        row(ids, "CPU time of that process, user+sys (ms)", m -> fmt(m.get("cold.cpu_ms")));
        row(ids, "max RSS of that process (MB)", m -> kbToMb(m.get("cold.rss_kb")));
        for (Map.Entry<String, String> c : Harness.COLD.subList(1, Harness.COLD.size())) {
            String k = c.getKey();
            row(ids, "`bufq -c '" + c.getValue() + "'` process: wall / CPU (ms) / max RSS (MB)", m -> m.get(k + ".ms") == null ? "-"
                    : fmt(m.get(k + ".ms")) + " / " + fmt(m.get(k + ".cpu_ms")) + " / " + kbToMb(m.get(k + ".rss_kb")));
        }
        row(ids, "retained heap after load (MB)", m -> num(m.get("warm.retained_bytes")) < 1e6 ? "< 1"
                : mb(m.get("warm.retained_bytes")));
        row(ids, "retained heap / text size", m -> num(m.get("warm.text_bytes")) < 5e6 ? "- (too small to tell)"
                : ratio(m.get("warm.retained_bytes"), m.get("warm.text_bytes")));
        row(ids, "VmHWM of the in-process JVM (MB)", m -> kbToMb(m.get("warm.vm_hwm_kb")));
        row(ids, "load warnings", m -> m.get("warm.warnings"));
        for (Map.Entry<String, String> q : InProcess.QUERIES) {
            String k = "warm." + q.getKey();
            row(ids, "`" + q.getValue().replace("MID", "<middle step>") + "` (ms, rows)",
                    m -> m.containsKey(k + "_error") ? "n/a" : fmt(m.get(k + "_ms")) + " (" + m.get(k + "_rows") + ")");
        }
        row(ids, "`peak` (ms)", m -> m.containsKey("warm.peak_error") ? "n/a" : fmt(m.get("warm.peak_ms")));
        row(ids, "`timeline` (ms)", m -> m.containsKey("warm.timeline_error") ? "n/a" : fmt(m.get("warm.timeline_ms")));
        row(ids, "`why` on the largest value at the peak: wall / CPU (ms)", m -> m.containsKey("warm.why_error") ? "n/a"
                : fmt(m.get("warm.why_ms")) + " / " + fmt(m.get("warm.why_cpu_ms")));
        row(ids, "`why values where live at peak`: values, wall / CPU (ms)", m -> m.containsKey("warm.why_error") ? "n/a"
                : m.get("warm.why_batch_values") + ", " + fmt(m.get("warm.why_batch_ms")) + " / " + fmt(m.get("warm.why_batch_cpu_ms")));
        row(ids, "`whatif` remat + scale (ms)", m -> m.containsKey("warm.whatif_error") ? "n/a" : fmt(m.get("warm.whatif_ms")));
        row(ids, "Python reference: wall (ms) / CPU (ms) / max RSS (MB)", m -> m.get("py.ms") == null ? "-"
                : fmt(m.get("py.ms")) + " / " + fmt(m.get("py.cpu_ms")) + " / " + kbToMb(m.get("py.rss_kb")));
        md.append('\n');
    }

    private void row(List<String> ids, String label, Function<Map<String, String>, String> f) {
        md.append("| ").append(label).append(" |");
        for (String id : ids) {
            String v = f.apply(r.get(id));
            md.append(' ').append(v == null ? "-" : v).append(" |");
        }
        md.append('\n');
    }

    private void versusPython() {
        md.append("### bufq against the Python reference parser (`bench/python/xla_buffers.py`), whole processes\n\n");
        md.append("| input | values | text (MB) | bufq `-c summary` wall / CPU (ms) | bufq max RSS (MB) | Python wall / CPU (ms) "
                + "| Python max RSS (MB) | Python/bufq wall | Python/bufq CPU | Python/bufq memory |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Harness.Input in : inputs) {
            Map<String, String> m = r.get(in.id());
            if (m == null || m.get("py.ms") == null) continue;
            md.append("| ").append(in.label()).append(" | ").append(m.get("warm.values")).append(" | ")
                    .append(mb(m.get("warm.text_bytes"))).append(" | ").append(fmt(m.get("cold.ms"))).append(" / ")
                    .append(fmt(m.get("cold.cpu_ms"))).append(" | ").append(kbToMb(m.get("cold.rss_kb"))).append(" | ")
                    .append(fmt(m.get("py.ms"))).append(" / ").append(fmt(m.get("py.cpu_ms"))).append(" | ")
                    .append(kbToMb(m.get("py.rss_kb"))).append(" | ").append(times(m.get("py.ms"), m.get("cold.ms")))
                    .append(" | ").append(times(m.get("py.cpu_ms"), m.get("cold.cpu_ms")))
                    .append(" | ").append(times(m.get("py.rss_kb"), m.get("cold.rss_kb"))).append(" |\n");
        }
        md.append("\nThe issue quotes about 4 s and 320 MB for a public Python parser on a 28 MB dump; the reference "
                + "above is the same kind of parser measured on this machine.\n\n");
    }

    private void targets() {
        md.append("### Targets\n\n| target | measured | verdict |\n|---|---|---|\n");
        String big = sizes.contains("1m") ? "1m" : sizes.get(sizes.size() - 1);
        List<String> large = new ArrayList<>();
        for (String f : List.of("four", "single")) if (r.containsKey(f + "-" + big)) large.add(f + "-" + big);
        double minTp = Double.MAX_VALUE;
        StringBuilder tp = new StringBuilder();
        for (String id : large) {
            double t = num(throughput(r.get(id)));
            minTp = Math.min(minTp, t);
            tp.append(id).append(' ').append(fmt1(t)).append(" MB/s (").append(cpuThroughput(r.get(id)))
                    .append(" per CPU second); ");
        }
        target("load >= 150 MB/s in-process on large inputs", tp.toString(), minTp >= 150);
        double maxLoad = 0;
        StringBuilder ld = new StringBuilder();
        for (String id : large) {
            double t = num(r.get(id).get("warm.load_ms"));
            maxLoad = Math.max(maxLoad, t);
            ld.append(id).append(' ').append(fmt1(t / 1000)).append(" s; ");
        }
        boolean oom = large.stream().anyMatch(id -> r.get(id).containsKey("warm.oom_2g"));
        target("a " + big.toUpperCase(Locale.ROOT) + "-value module loads in a few seconds (<= 5 s) in -Xmx2g",
                (oom ? "out of memory in -Xmx2g; with -Xmx" + Harness.BIG_HEAP + ": " : "") + ld,
                !large.isEmpty() && !oom && maxLoad <= 5000
                        && large.stream().noneMatch(id -> r.get(id).containsKey("warm.error")));
        Map<String, String> m28 = r.get("four-28mb");
        double cold28 = m28 == null ? Double.NaN : num(m28.get("cold.ms"));
        target("`bufq -c summary` on the 28 MB module < 1 s, whole process", fmt1(cold28) + " ms wall, "
                + (m28 == null ? "-" : fmt(m28.get("cold.cpu_ms"))) + " ms CPU", cold28 < 1000);
        double live = 0, worst = 0;
        String worstQ = "";
        for (String id : large) {
            live = Math.max(live, num(r.get(id).get("warm.q_live_mid_ms")));
            for (Map.Entry<String, String> q : InProcess.QUERIES) {
                double v = num(r.get(id).get("warm." + q.getKey() + "_ms"));
                if (Double.isNaN(v) || v > worst) { worst = v; worstQ = id + " `" + q.getValue() + "`"; }
                if (Double.isNaN(v)) break;
            }
        }
        target("`live at` on " + big.toUpperCase(Locale.ROOT) + " values < 20 ms", fmt1(live) + " ms (worst input)", live < 20);
        target("every query < 200 ms on " + big.toUpperCase(Locale.ROOT) + " values", "slowest " + fmt1(worst) + " ms: " + worstQ,
                worst < 200);
        double analyses = 0;
        StringBuilder an = new StringBuilder();
        for (String id : large) {
            double p = num(r.get(id).get("warm.peak_ms")), t = num(r.get(id).get("warm.timeline_ms"));
            analyses = Math.max(analyses, Math.max(p, t));
            an.append(id).append(" peak ").append(fmt1(p)).append(" ms, timeline ").append(fmt1(t)).append(" ms; ");
        }
        target("`peak` and `timeline` < 200 ms on " + big.toUpperCase(Locale.ROOT) + " values (beside the query set)",
                an.toString(), !large.isEmpty() && analyses < 200);
        double maxRatio = 0;
        String worstIn = "";
        for (Harness.Input in : inputs) {
            Map<String, String> m = r.get(in.id());
            if (m == null || num(m.get("warm.text_bytes")) < 5e6) continue;   // under 5 MB the heap noise dominates
            double q = num(ratio(m.get("warm.retained_bytes"), m.get("warm.text_bytes")));
            if (Double.isNaN(q) || q > maxRatio) { maxRatio = q; worstIn = in.id(); }
        }
        target("retained heap <= dump text size (inputs over 5 MB)", "worst " + fmt2(maxRatio) + "x (" + worstIn + ")", maxRatio <= 1.0);
        if (m28 != null && m28.get("py.ms") != null) {
            double tr = num(m28.get("py.ms")) / num(m28.get("cold.ms"));
            target("an order of magnitude faster than Python on the 28 MB module (whole process)",
                    fmt1(tr) + "x", tr >= 10);
        }
        md.append('\n');
    }

    /**
     * The 28 MB module's batch commands against {@code ../shared/bench/ref.py} in turn (the
     * ratio pair by pair, its spread), the time to the first prompt in tmux, and {@code modules} over
     * 2,000 programs.
     */
    private void yardstick() {
        Map<String, String> m28 = r.get("four-28mb"), pr = r.get("prompt"), d = r.get("dir2k");
        if ((m28 == null || m28.get("ref.ms") == null) && pr == null && d == null) return;
        md.append("### Against the yardstick (`../shared/bench/ref.py`), the prompt, 2,000 programs\n\n")
                .append("Load average ").append(loadAtStart).append(" at the start, ").append(loadAverage())
                .append(" at the end; on a busy machine trust the ratios (each pair ran one after the other), CPU and RSS.\n\n")
                .append("| target | bufq wall (ms, runs) | ref.py wall (ms) | ratio per pair: median (lowest-highest) | bufq CPU (ms) | ref.py CPU (ms) | bufq RSS (MB) | ref.py RSS (MB) | verdict |\n")
                .append("|---|---|---:|---|---:|---:|---:|---:|---|\n");
        if (m28 != null && m28.get("ref.ms") != null) {
            for (Map.Entry<String, String> c : Harness.COLD.subList(0, 2)) {
                String k = c.getKey();
                if (m28.get(k + ".ref_wall_ratio") == null) continue;
                double ratio = num(m28.get(k + ".ref_wall_ratio"));
                boolean lessCpu = num(m28.get(k + ".cpu_ms")) < num(m28.get("ref.cpu_ms"));
                boolean lessRss = num(m28.get(k + ".rss_kb")) <= num(m28.get("ref.rss_kb"));
                md.append("| 28 MB `-c '").append(c.getValue()).append("'`: >= 3x ref.py, less CPU, RSS <= ref.py's | ")
                        .append(fmt(m28.get(k + ".ms"))).append(" (").append(fmt(m28.get(k + ".ms_min"))).append("-")
                        .append(fmt(m28.get(k + ".ms_max"))).append(") | ").append(fmt(m28.get("ref.ms"))).append(" | ")
                        .append(m28.get(k + ".ref_wall_ratio")).append("x (").append(m28.get(k + ".ref_wall_ratio_min")).append("-")
                        .append(m28.get(k + ".ref_wall_ratio_max")).append(") | ").append(fmt(m28.get(k + ".cpu_ms"))).append(" | ")
                        .append(fmt(m28.get("ref.cpu_ms"))).append(" | ").append(kbToMb(m28.get(k + ".rss_kb"))).append(" | ")
                        .append(kbToMb(m28.get("ref.rss_kb"))).append(" | ")
                        .append(ratio >= 3 ? "wall met" : "wall **not met**").append(", CPU ").append(lessCpu ? "met" : "**not met**")
                        .append(", RSS ").append(lessRss ? "met" : "**not met**").append(" |\n");
            }
        }
        if (pr != null) {
            for (String[] p : new String[][]{{"prompt.example", "first prompt, bundled example (tmux) < 500 ms", "500"},
                    {"prompt.28mb", "first prompt, 28 MB module (tmux) < 1,000 ms", "1000"}}) {
                if (pr.get(p[0] + ".error") != null) {
                    md.append("| ").append(p[1]).append(" | error: ").append(pr.get(p[0] + ".error")).append(" | | | | | | | |\n");
                } else if (pr.get(p[0] + ".ms") != null) {
                    md.append("| ").append(p[1]).append(" | ").append(fmt(pr.get(p[0] + ".ms"))).append(" (")
                            .append(fmt(pr.get(p[0] + ".ms_min"))).append("-").append(fmt(pr.get(p[0] + ".ms_max")))
                            .append(") | | | ").append(fmt(pr.get(p[0] + ".cpu_ms"))).append(" by the prompt | | | | ")
                            .append(num(pr.get(p[0] + ".ms")) < num(p[2]) ? "met" : "**not met**").append(" |\n");
                }
            }
        }
        for (String command : new String[]{"modules", "fit"}) {
            String k = "dir2k." + command;
            if (d == null || d.get(k + ".ms") == null) continue;
            md.append("| `-c ").append(command).append("` over ").append(d.get("dir2k.modules_count")).append(" programs (files of their own) < 5 s | ")
                    .append(fmt(d.get(k + ".ms"))).append(" | | | ").append(fmt(d.get(k + ".cpu_ms")))
                    .append(" | | ").append(kbToMb(d.get(k + ".rss_kb"))).append(" | | ")
                    .append(num(d.get(k + ".ms")) < 5000 ? "met" : "**not met**").append(" |\n");
        }
        md.append('\n');
    }

    /** Batch runs in bufq's own JVM against the Python reference, measured in turn in one run. */
    private void batchTargets() {
        Map<String, String> m28 = r.get("four-28mb");
        if (m28 == null && !r.containsKey("four-1m")) return;
        md.append("### Targets: batch runs, bufq's own JVM against the Python reference in the same run\n\n")
                .append("| target | measured | verdict |\n|---|---|---|\n");
        if (m28 != null && m28.get("py.ms") != null) {
            for (Map.Entry<String, String> c : Harness.COLD.subList(0, 2)) {
                String k = c.getKey();
                double wall = num(m28.get("py.ms")) / num(m28.get(k + ".ms"));
                double cpu = num(m28.get(k + ".cpu_ms")), pyCpu = num(m28.get("py.cpu_ms"));
                // fmt2: a 2.96x must not print as 3.0x beside "not met".
                target("`bufq -c '" + c.getValue() + "'` on the 28 MB module: >= 3x faster than Python (wall), less CPU",
                        fmt(m28.get(k + ".ms")) + " ms / " + fmt1(cpu) + " ms CPU against " + fmt(m28.get("py.ms")) + " ms / "
                                + fmt1(pyCpu) + " ms CPU: " + fmt2(wall) + "x wall, " + fmt2(pyCpu / cpu) + "x CPU",
                        wall >= 3 && cpu < pyCpu);
            }
            double rss = num(m28.get("cold.rss_kb")), pyRss = num(m28.get("py.rss_kb"));
            target("max RSS of `bufq -c summary` <= Python's on the 28 MB module", kbToMb(m28.get("cold.rss_kb")) + " MB against "
                    + kbToMb(m28.get("py.rss_kb")) + " MB", rss <= pyRss);
            md.append("| `bufq -c blame` on the 28 MB module (no slower than before the batch path was measured: compare with the figure "
                    + "of an earlier run) | ").append(fmt(m28.get("cold.blame.ms"))).append(" ms / ")
                    .append(fmt(m28.get("cold.blame.cpu_ms"))).append(" ms CPU | see RESULTS.md |\n");
        }
        Map<String, String> m1 = r.get("four-1m");
        if (m1 != null) {
            double ms = num(m1.get("cold.ms"));
            target("`bufq -c summary` on the four-file 1M-value module < 3 s, whole process", fmt1(ms) + " ms, "
                    + fmt(m1.get("cold.cpu_ms")) + " ms CPU, " + kbToMb(m1.get("cold.rss_kb")) + " MB", ms < 3000);
        }
        for (Map.Entry<String, Map<String, String>> e : r.entrySet()) {
            Map<String, String> m = e.getValue();
            if (m.get("perfetto.ms") == null && m.get("perfetto.error") == null) continue;
            md.append("| `bufq -c 'export perfetto FILE'` on ").append(e.getKey()).append(" (size and time, one process) | ")
                    .append(m.get("perfetto.error") != null ? "error: " + m.get("perfetto.error")
                            : fmt(m.get("perfetto.ms")) + " ms / " + fmt(m.get("perfetto.cpu_ms")) + " ms CPU / "
                            + kbToMb(m.get("perfetto.rss_kb")) + " MB RSS; file " + mb(m.get("perfetto.bytes")) + " MB")
                    .append(" | measured |\n");
        }
        md.append('\n');
    }

    private void directory() {
        Map<String, String> d = r.get("dir");
        if (d == null) return;
        md.append("### A directory of ").append(d.get("dir.modules_count"))
                .append(" modules (`jax-0.10.2/multi-module-dir` replicated, whole `./bufq` processes)\n\n")
                .append("| command | wall (ms) | CPU (ms) | max RSS (MB) |\n|---|---:|---:|---:|\n");
        for (String c : List.of("modules", "summary")) {
            String p = "dir." + c;
            md.append("| `bufq -c ").append(c).append(" DIR` | ").append(fmt(d.get(p + ".ms"))).append(" | ")
                    .append(fmt(d.get(p + ".cpu_ms"))).append(" | ").append(fmt1(num(d.get(p + ".rss_kb")) / 1024)).append(" |\n");
        }
        md.append("\n`modules` lists every module without parsing it; `summary` parses them all.\n\n");
    }

    private void protoLoad() {
        Map<String, String> p = r.get("proto");
        if (p == null || p.containsKey("proto.error")) return;
        md.append("### `.hlo.pb` against the text of the same module\n\n")
                .append("`jax-0.10.2-proto/transformer-12layer` (").append(p.get("proto.proto_values"))
                .append(" values) loaded as its `.hlo.pb` and as its text set in turns in one warm JVM, values included; medians.\n\n")
                .append("| input | wall (ms) | loading thread CPU (ms) | all Java threads' CPU (ms) | µs per value, wall | loading thread CPU | all threads' CPU |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (String k : List.of("proto", "text")) {
            String q = "proto." + k + "_";
            md.append("| ").append(k.equals("proto") ? "`.hlo.pb`" : "text set").append(" | ").append(fmt(p.get(q + "load_ms")))
                    .append(" | ").append(fmt(p.get(q + "thread_cpu_ms"))).append(" | ").append(fmt(p.get(q + "all_threads_cpu_ms")))
                    .append(" | ").append(fmt(p.get(q + "us_per_value"))).append(" | ").append(fmt(p.get(q + "thread_cpu_us_per_value")))
                    .append(" | ").append(fmt(p.get(q + "all_threads_cpu_us_per_value"))).append(" |\n");
        }
        md.append('\n');
        double proto = num(p.get("proto.proto_all_threads_cpu_us_per_value")), text = num(p.get("proto.text_all_threads_cpu_us_per_value"));
        double protoWall = num(p.get("proto.proto_us_per_value")), textWall = num(p.get("proto.text_us_per_value"));
        md.append("Target \"a `.hlo.pb` loads at least as fast per value as the text\": CPU ").append(fmt2(proto)).append(" against ")
                .append(fmt2(text)).append(" µs per value, ").append(proto <= text ? "met" : "**not met**").append("; wall ")
                .append(fmt2(protoWall)).append(" against ").append(fmt2(textWall)).append(" µs, ")
                .append(protoWall <= textWall ? "met" : "**not met**").append(".\n\n");
    }

    private void target(String what, String measured, boolean ok) {
        md.append("| ").append(what).append(" | ").append(measured).append(" | ").append(ok ? "met" : "**not met**")
                .append(" |\n");
    }

    private void errors() {
        StringBuilder e = new StringBuilder();
        for (Map.Entry<String, Map<String, String>> in : r.entrySet()) {
            for (Map.Entry<String, String> kv : in.getValue().entrySet()) {
                if (kv.getKey().endsWith("error") || kv.getKey().endsWith("first_warning")) {
                    e.append("- ").append(in.getKey()).append(' ').append(kv.getKey()).append(": ").append(kv.getValue())
                            .append('\n');
                }
            }
        }
        if (e.length() > 0) md.append("### Errors and skipped measurements\n\n").append(e).append('\n');
    }

    static String throughput(Map<String, String> m) {
        double bytes = num(m.get("warm.text_bytes")), ms = num(m.get("warm.load_ms"));
        return Double.isNaN(bytes) || Double.isNaN(ms) || ms == 0 ? null : fmt1(bytes / 1e6 / (ms / 1000));
    }

    static String cpuThroughput(Map<String, String> m) {
        double bytes = num(m.get("warm.text_bytes")), ms = num(m.get("warm.load_cpu_ms"));
        return Double.isNaN(bytes) || Double.isNaN(ms) || ms == 0 ? null : fmt1(bytes / 1e6 / (ms / 1000));
    }

    static double num(String s) {
        if (s == null) return Double.NaN;
        try { return Double.parseDouble(s); } catch (NumberFormatException e) { return Double.NaN; }
    }

    static String mb(String bytes) { double b = num(bytes); return Double.isNaN(b) ? null : fmt1(b / 1e6); }
    static String kbToMb(String kb) { double k = num(kb); return Double.isNaN(k) || k < 0 ? "-" : fmt1(k * 1024 / 1e6); }
    static String ratio(String a, String b) { double x = num(a), y = num(b); return Double.isNaN(x / y) ? null : fmt2(x / y); }
    static String times(String a, String b) { double x = num(a), y = num(b); return Double.isNaN(x / y) ? "-" : fmt1(x / y) + "x"; }
    static String fmt(String s) { double v = num(s); return Double.isNaN(v) ? "-" : v < 10 ? fmt2(v) : fmt1(v); }
    static String fmt1(double v) { return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v); }
    static String fmt2(double v) { return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v); }
}
