package bufq.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.io.File;
import java.util.Locale;
import java.util.TreeMap;

/**
 * The benchmark, run by {@code bench/run}: makes the inputs when missing, measures each
 * one (warm in a JVM of its own, cold as whole {@code bufq -c summary} processes, the Python
 * reference parser side by side), prints the markdown report and writes it to
 * {@code bench/target/results.md}. It decides what runs; {@link ProcessRuns} times whole processes
 * and {@link Report} prints the figures.
 *
 * <p>{@code Harness --root DIR [--quick] [--sizes 100k,300k,1m] [--cold N] [--no-python] [--inputs ID,...] [--no-warm] [--no-dir] [--no-prompt]}
 */
public final class Harness {
    /** One measured input. */
    record Input(String id, String label, Path path, String family, String size) {}

    final Path root;
    final Path bench;
    final Path generated;
    final PrintStream log;
    final ProcessRuns procs;
    int coldRuns = 5;
    boolean python = true;
    boolean warm = true;
    boolean dir = true;
    /** Time to the first prompt in tmux. */
    boolean prompt = true;
    /** Input ids to measure (e.g. four-28mb, four-1m); null: all. */
    List<String> only;
    boolean quick;
    List<String> sizes = List.of("100k", "300k", "1m");

    Harness(Path root, PrintStream log) {
        this.root = root;
        this.bench = root.resolve("bench");
        this.generated = bench.resolve("target/generated");
        this.log = log;
        this.procs = new ProcessRuns(root);
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(".");
        Harness h = null;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--root") && i + 1 < args.length) root = Path.of(args[++i]);
            else rest.add(args[i]);
        }
        h = new Harness(root.toAbsolutePath().normalize(), System.err);
        for (int i = 0; i < rest.size(); i++) {
            switch (rest.get(i)) {
                case "--quick" -> { h.quick = true; h.sizes = List.of("100k"); h.coldRuns = 3; }
                case "--sizes" -> h.sizes = List.of(rest.get(++i).toLowerCase().split(","));
                case "--cold" -> h.coldRuns = Integer.parseInt(rest.get(++i));
                case "--no-python" -> h.python = false;
                case "--inputs" -> h.only = List.of(rest.get(++i).toLowerCase().split(","));
                case "--no-warm" -> h.warm = false;
                case "--no-dir" -> h.dir = false;
                case "--no-prompt" -> h.prompt = false;
                default -> { System.err.println("harness: unknown option " + rest.get(i)); System.exit(2); }
            }
        }
        String md = h.run();
        System.out.println(md);
        Path out = h.bench.resolve("target/results.md");
        Files.writeString(out, md, StandardCharsets.UTF_8);
        System.err.println("written to " + out);
    }

    Path corpus() { return root.resolve("../shared/corpus").normalize(); }
    Path transformer() { return corpus().resolve("jax-0.10.2/transformer-12layer"); }
    Path gpu() {
        return corpus().resolve("public/jackmcarthur_lorrax_sandbox__Si-04_si_4x4x4_bse-C_lorrax_bse_bgweqp-profile_b1_rtol1e4"
                + "__module_0037.jit__full_run.sm_8.0_gpu-buffer-assignment.txt");
    }

    /** Generated inputs (made when missing) and the two real dumps they replicate. */
    List<Input> inputs() {
        List<Input> in = new ArrayList<>();
        if (Files.isDirectory(transformer())) in.add(new Input("corpus-four", "corpus transformer-12layer (4 files)",
                transformer(), "corpus", "real"));
        if (Files.exists(gpu())) in.add(new Input("corpus-single", "corpus largest GPU dump (1 file)", gpu(), "corpus", "real"));
        in.add(new Input("four-28mb", "28 MB module (4 files)", generated.resolve("four-28mb"), "28mb", "50k"));
        for (String s : sizes) {
            in.add(new Input("four-" + s, "four-file " + s, generated.resolve("four-" + s), "four", s));
            in.add(new Input("single-" + s, "single-file " + s, generated.resolve("single-" + s), "single", s));
        }
        return in;
    }

    void ensureGenerated(Input in) {
        if (in.family().equals("corpus") || Files.isDirectory(in.path())) return;
        boolean four = !in.family().equals("single");
        Path src = four ? transformer() : gpu();
        if (!Files.exists(src)) throw new IllegalStateException("corpus not found at " + src + "; cannot generate " + in.id());
        String values = in.size().equals("50k") ? "50000" : in.size();
        log.println("generating " + in.id() + " ...");
        int rc = Generate.run(new String[]{"--source", src.toString(), "--values", values, "--format", four ? "four" : "single",
                "--out", in.path().toString()}, log, log);
        if (rc != 0) throw new IllegalStateException("generation of " + in.id() + " failed");
    }

    String run() throws Exception {
        Map<String, Map<String, String>> results = new LinkedHashMap<>();
        String loadAtStart = Report.loadAverage();
        List<Input> inputs = new ArrayList<>(inputs());
        if (only != null) inputs.removeIf(in -> !only.contains(in.id()));
        for (Input in : inputs) ensureGenerated(in);
        measure(inputs, results);
        return new Report(inputs, results, sizes, coldRuns, loadAtStart).markdown();
    }

    private void measure(List<Input> inputs, Map<String, Map<String, String>> results) throws Exception {
        for (Input in : inputs) {
            Map<String, String> r = new LinkedHashMap<>();
            boolean big = InProcess.textBytes(in.path()) > 200_000_000L;
            if (warm) {
                log.println("measuring " + in.id() + " in-process ...");
                r.putAll(warm(in, big));
            } else {
                r.put("warm.values", "-");
                r.put("warm.text_bytes", Long.toString(InProcess.textBytes(in.path())));
            }
            int runs = big ? Math.min(3, coldRuns) : coldRuns;
            if (in.family().equals("28mb") && !quick) runs = Math.max(runs, 7);   // median of 7 pairs
            boolean py = python && (!quick || in.family().equals("28mb"));
            log.println("measuring " + in.id() + " cold (" + runs + " processes of each command"
                    + (py ? ", the Python reference in turn" : "") + ") ...");
            // Side by side on the 28 MB module (the batch targets); elsewhere Python's long runs fewer times.
            r.putAll(cold(in, runs, !py ? 0 : in.family().equals("28mb") ? runs : big ? 1 : Math.min(3, runs)));
            if (in.id().equals(largestFour(inputs))) r.putAll(perfetto(in));
            results.put(in.id(), r);
        }
        if (prompt) {
            Map<String, String> pr = new LinkedHashMap<>();
            log.println("measuring the time to the first prompt in tmux (" + coldRuns + " sessions each) ...");
            pr.putAll(PromptTime.measure("prompt.example", List.of(root.resolve("bufq").toString()), root, coldRuns));
            for (Input in : inputs) {
                if (in.id().equals("four-28mb")) {
                    pr.putAll(PromptTime.measure("prompt.28mb", List.of(root.resolve("bufq").toString(), in.path().toString()), root, coldRuns));
                }
            }
            results.put("prompt", pr);
        }
        Path generatedDir = this.dir ? programs() : null;
        if (generatedDir != null) {
            // `modules` and `fit` over a directory of 2,000 programs, each module's files its own copies.
            Map<String, String> d = new LinkedHashMap<>();
            d.put("dir2k.modules_count", Long.toString(moduleCount(generatedDir)));
            for (String command : List.of("modules", "fit")) {
                log.println("measuring the directory of 2,000 programs: -c " + command + " (" + coldRuns + " processes) ...");
                List<String> argv = new ArrayList<>(List.of(root.resolve("bufq").toString(), "-c", command, generatedDir.toString()));
                if (command.equals("fit")) argv.addAll(1, List.of("--capacity", "16GiB"));   // fit needs a device's memory
                d.putAll(procs.processes("dir2k." + command, argv, coldRuns));
            }
            results.put("dir2k", d);
        }
        Path dir = this.dir ? directory() : null;
        if (dir != null) {
            // "a few thousand modules per directory" must feel instant too.
            Map<String, String> d = new LinkedHashMap<>();
            d.put("dir.modules_count", Long.toString(moduleCount(dir)));
            for (String command : List.of("modules", "summary")) {
                log.println("measuring the directory: -c " + command + " (" + coldRuns + " processes) ...");
                d.putAll(procs.processes("dir." + command, List.of(root.resolve("bufq").toString(), "-c", command, dir.toString()), coldRuns));
            }
            results.put("dir", d);
        }
        Map<String, String> proto = protoLoad();
        if (proto != null) results.put("proto", proto);
    }

    /** The corpus module dumped both ways: its {@code .hlo.pb} and its text set. */
    Path protoModule() { return corpus().resolve("jax-0.10.2-proto/transformer-12layer"); }

    static final String PROTO_STEM = "module_0000.jit_step.cpu_after_optimizations";

    /**
     * The proto row: {@link ProtoLoad} in a JVM of its own on the largest corpus proto against the
     * text of the same module; null without the corpus.
     */
    Map<String, String> protoLoad() throws Exception {
        Path dir = protoModule();
        Path pb = dir.resolve(PROTO_STEM + ".hlo.pb"), txt = dir.resolve(PROTO_STEM + "-buffer-assignment.txt");
        if (!Files.exists(pb) || !Files.exists(txt)) return null;
        log.println("measuring the .hlo.pb against its text (ProtoLoad) ...");
        String cp = bench.resolve("target/classes") + File.pathSeparator + bench.resolve("target/lib/*");
        // The JVM options the launcher gives a run (the client compiler only): with the default tiers
        // and 40 warm-ups the loads were timed while the optimizing compiler was still at work on
        // them, a mix of interpreted, C1 and C2 code that moved with the machine's load.
        ProcessRuns.Proc p = procs.exec(List.of(java(), "-Xmx2g", "-Xms1g", "-XX:+UseParallelGC", "-XX:MaxTenuringThreshold=0",
                "-XX:TieredStopAtLevel=1", "-XX:Tier3BackEdgeThreshold=6000", "-cp", cp, "bufq.bench.ProtoLoad",
                pb.toString(), txt.toString(), "--runs", quick ? "41" : "201", "--warmup", "150"), false);
        Map<String, String> r = new LinkedHashMap<>();
        for (String l : p.out().split("\n")) {
            int eq = l.indexOf('=');
            if (eq > 0) r.put("proto." + l.substring(0, eq), l.substring(eq + 1));
        }
        if (p.rc() != 0) r.put("proto.error", "exit " + p.rc() + ": " + ProcessRuns.lastLine(p.err()));
        return r;
    }

    /** The id of the largest generated four-file input measured (four-1m in a full run), or null. */
    private String largestFour(List<Input> inputs) {
        String best = null;
        for (Input in : inputs) if (in.family().equals("four")) best = in.id();   // sizes run small to large
        return best;
    }

    /**
     * One {@code bufq -c 'export perfetto FILE'} process on {@code in}: wall, CPU, max RSS
     * and the file's size (the trace is streamed; this shows what a million values make).
     */
    Map<String, String> perfetto(Input in) throws Exception {
        Path file = generated.resolve(in.id() + "-trace.json");
        Files.deleteIfExists(file);
        log.println("measuring " + in.id() + ": export perfetto (one process) ...");
        Map<String, String> r = procs.processes("perfetto", List.of(root.resolve("bufq").toString(), "-c",
                "export perfetto " + file, in.path().toString()), 1);
        if (Files.exists(file)) {
            r.put("perfetto.bytes", Long.toString(Files.size(file)));
            Files.delete(file);
        }
        return r;
    }

    /** The in-process measurement; an input that does not fit in -Xmx2g is measured again in a bigger heap. */
    private Map<String, String> warm(Input in, boolean big) throws Exception {
        Map<String, String> warm = inProcess(in, big ? 3 : 5, big ? 1 : 2, "2g");
        if (warm.getOrDefault("warm.error", "").contains("OutOfMemoryError")) {
            // Still show how it scales: the same measurement with a heap that holds it, marked as such.
            log.println("  out of memory in -Xmx2g; measuring again with -Xmx" + BIG_HEAP + " ...");
            Map<String, String> again = inProcess(in, 1, 0, BIG_HEAP);
            again.put("warm.oom_2g", warm.get("warm.error"));
            warm = again;
        }
        return warm;
    }

    /** Modules of the multi-module corpus directory replicated to 3,000 and more (links, renumbered), or null without the corpus. */
    Path directory() throws IOException {
        Path src = corpus().resolve("jax-0.10.2/multi-module-dir");
        if (!Files.isDirectory(src)) return null;
        Path dir = generated.resolve("dir-3k");
        if (Files.isDirectory(dir)) return dir;
        log.println("generating dir-3k ...");
        Path tmp = generated.resolve("dir-3k.tmp");
        if (Files.exists(tmp)) try (var old = Files.list(tmp)) { for (Path f : old.toList()) Files.delete(f); }
        Files.createDirectories(tmp);
        List<Path> files;
        try (var list = Files.list(src)) { files = list.sorted().toList(); }
        TreeMap<String, List<Path>> modules = new TreeMap<>();
        for (Path f : files) {
            String n = f.getFileName().toString();
            if (n.startsWith("module_") && n.indexOf('.') > 0) modules.computeIfAbsent(n.substring(0, n.indexOf('.')), k -> new ArrayList<>()).add(f);
        }
        int k = 0;
        while (k < 3000) {
            for (List<Path> group : modules.values()) {
                String number = String.format(Locale.ROOT, "module_%05d", k++);
                for (Path f : group) {
                    String n = f.getFileName().toString();
                    Files.createSymbolicLink(tmp.resolve(number + n.substring(n.indexOf('.'))), f.toAbsolutePath());
                }
            }
        }
        Files.move(tmp, dir);
        return dir;
    }

    /** The number of programs in {@link #programs()}. */
    static final int PROGRAMS = 2000;

    /**
     * The fleet directory: {@value #PROGRAMS} programs of {@code jax-0.10.2/multi-module-dir}
     * renumbered, each file a copy of its own (not a link, so the files are read as many times as
     * there are modules), under {@code bench/target/generated/dir-2k}; null without the corpus.
     */
    Path programs() throws IOException {
        Path src = corpus().resolve("jax-0.10.2/multi-module-dir");
        if (!Files.isDirectory(src)) return null;
        Path dir = generated.resolve("dir-2k");
        if (Files.isDirectory(dir)) return dir;
        log.println("generating dir-2k ...");
        Path tmp = generated.resolve("dir-2k.tmp");
        if (Files.exists(tmp)) try (var old = Files.list(tmp)) { for (Path f : old.toList()) Files.delete(f); }
        Files.createDirectories(tmp);
        TreeMap<String, List<Path>> modules = new TreeMap<>();
        try (var list = Files.list(src)) {
            for (Path f : list.sorted().toList()) {
                String n = f.getFileName().toString();
                if (n.startsWith("module_") && n.indexOf('.') > 0) modules.computeIfAbsent(n.substring(0, n.indexOf('.')), k -> new ArrayList<>()).add(f);
            }
        }
        int k = 0;
        while (k < PROGRAMS) {
            for (List<Path> group : modules.values()) {
                if (k == PROGRAMS) break;
                String number = String.format(Locale.ROOT, "module_%05d", k++);
                for (Path f : group) {
                    String n = f.getFileName().toString();
                    Files.copy(f, tmp.resolve(number + n.substring(n.indexOf('.'))));
                }
            }
        }
        Files.move(tmp, dir);
        return dir;
    }

    private static long moduleCount(Path dir) throws IOException {
        try (var list = Files.list(dir)) {
            return list.map(f -> f.getFileName().toString()).map(n -> n.substring(0, n.indexOf('.'))).distinct().count();
        }
    }

    String java() {
        Path home = Path.of(System.getProperty("java.home"));
        return home.resolve("bin/java").toString();
    }

    /** Heap of the second attempt when an input does not fit in -Xmx2g. */
    static final String BIG_HEAP = "8g";

    Map<String, String> inProcess(Input in, int runs, int warmup, String heap) throws Exception {
        String cp = bench.resolve("target/classes") + File.pathSeparator + bench.resolve("target/lib/*");
        ProcessRuns.Proc p = procs.exec(List.of(java(), "-Xmx" + heap, "-Xms2g", "-XX:+UseParallelGC", "-XX:MaxTenuringThreshold=0", "-Xss8m", "-cp", cp, "bufq.bench.InProcess",
                in.path().toString(), "--runs", Integer.toString(runs), "--warmup", Integer.toString(warmup)), false);
        Map<String, String> r = new LinkedHashMap<>();
        r.put("warm.heap", heap);
        for (String l : p.out().split("\n")) {
            int eq = l.indexOf('=');
            if (eq > 0) r.put("warm." + l.substring(0, eq), l.substring(eq + 1));
        }
        if (p.rc() != 0 && !r.containsKey("warm.error")) r.put("warm.error", "exit " + p.rc() + ": " + ProcessRuns.lastLine(p.err()));
        return r;
    }

    private boolean launcherReady;

    /**
     * The batch commands, timed as whole processes: {@code bufq -c summary} needs only the
     * allocations and live ranges, the query as well, {@code blame} the Used values section too.
     * Keys: {@code cold} (summary), {@code cold.query}, {@code cold.blame}.
     */
    static final List<Map.Entry<String, String>> COLD = List.of(Map.entry("cold", "summary"),
            Map.entry("cold.query", "values where live at peak show count(), sum(size)"), Map.entry("cold.blame", "blame"));

    /**
     * Whole {@code bufq -c COMMAND PATH} processes through the launcher, as a user runs them (its JVM
     * flags and its batch class-data archive), and {@code pyRuns} runs of the Python reference
     * ({@code py}): one of each in turn, so a machine whose load drifts treats them alike; medians of
     * wall time, CPU and max RSS.
     */
    Map<String, String> cold(Input in, int runs, int pyRuns) throws Exception {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("cold.runs", Integer.toString(runs));
        Path jar = root.resolve("shell/target/bufq.jar");
        if (!Files.exists(jar)) { r.put("cold.error", "shell/target/bufq.jar not built"); return r; }
        String launcher = root.resolve("bufq").toString();
        if (!launcherReady) {   // the first batch run after a build makes the archive: not one to time
            procs.exec(List.of(launcher, "-c", "summary", root.resolve("examples/jax-mlp").toString()), false);
            launcherReady = true;
        }
        Map<String, List<String>> commands = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Map.Entry<String, String> c : COLD) {
            commands.put(c.getKey(), List.of(launcher, "-c", c.getValue(), in.path().toString()));
            counts.put(c.getKey(), runs);
        }
        if (pyRuns > 0) {
            commands.put("py", List.of("python3", bench.resolve("python/xla_buffers.py").toString(), in.path().toString()));
            counts.put("py", pyRuns);
            Path ref = root.resolve("../shared/bench/ref.py").normalize();
            if (in.family().equals("28mb") && Files.exists(ref)) {
                // The yardstick, in turn with bufq's runs: ratios pair by pair.
                commands.put("ref", List.of(ProcessRuns.python(), ref.toString(), in.path().toString()));
                counts.put("ref", runs);
            }
        }
        r.putAll(procs.inTurn(commands, counts));
        return r;
    }

}
