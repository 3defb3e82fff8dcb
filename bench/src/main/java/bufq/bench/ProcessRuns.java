package bufq.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Whole processes, timed: each run of a command under {@code /usr/bin/time} (wall time, user+sys CPU
 * and max RSS of the child), several runs of one command or of several commands in turn (so a
 * machine whose load drifts treats them alike), and the yardstick's ratios pair by pair.
 * {@link Harness} says what to run; {@link Report} prints the figures.
 */
final class ProcessRuns {
    /** The directory the commands run in (the checkout's root). */
    private final Path dir;

    ProcessRuns(Path dir) {
        this.dir = dir;
    }

    /** Each command run its count of times, one of each in turn; the keys of {@link #processes} per command. */
    Map<String, String> inTurn(Map<String, List<String>> commands, Map<String, Integer> counts) throws Exception {
        Map<String, long[][]> got = new LinkedHashMap<>();
        Map<String, String> r = new LinkedHashMap<>();
        int most = 0;
        for (Map.Entry<String, Integer> c : counts.entrySet()) {
            got.put(c.getKey(), new long[3][c.getValue()]);
            most = Math.max(most, c.getValue());
        }
        for (int i = 0; i < most; i++) {
            for (Map.Entry<String, List<String>> c : commands.entrySet()) {
                String prefix = c.getKey();
                if (i >= counts.get(prefix) || r.containsKey(prefix + ".error")) continue;
                Proc p = exec(c.getValue(), true);
                if (p.rc != 0) { r.put(prefix + ".error", "exit " + p.rc + ": " + lastLine(p.err)); continue; }
                long[][] g = got.get(prefix);
                g[0][i] = p.nanos;
                g[1][i] = p.maxRssKb;
                g[2][i] = p.cpuNanos;
                if (i == 0) r.put(prefix + ".summary", lastLine(p.out));
            }
        }
        long[][] ref = got.get("ref");
        for (Map.Entry<String, long[][]> e : got.entrySet()) {
            String prefix = e.getKey();
            if (r.containsKey(prefix + ".error")) continue;
            if (ref != null && !r.containsKey("ref.error") && prefix.startsWith("cold")) r.putAll(pairs(prefix, e.getValue(), ref));
            long[][] g = e.getValue();
            r.put(prefix + ".ms", InProcess.ms(InProcess.median(g[0])));
            // The spread beside the median: a noisy machine shows in it.
            r.put(prefix + ".ms_min", InProcess.ms(Arrays.stream(g[0]).min().orElse(0)));
            r.put(prefix + ".ms_max", InProcess.ms(Arrays.stream(g[0]).max().orElse(0)));
            r.put(prefix + ".rss_kb", Long.toString(InProcess.median(g[1])));
            if (g[2][0] >= 0) r.put(prefix + ".cpu_ms", InProcess.ms(InProcess.median(g[2])));
        }
        return r;
    }

    /**
     * The yardstick's time over bufq's, pair by pair (run i of each, one after the other): median,
     * lowest and highest of the wall ratios, and the median CPU ratio. A drifting machine load
     * moves both runs of a pair alike.
     */
    static Map<String, String> pairs(String prefix, long[][] bufq, long[][] ref) {
        int n = Math.min(bufq[0].length, ref[0].length);
        double[] wall = new double[n], cpu = new double[n];
        for (int i = 0; i < n; i++) {
            wall[i] = (double) ref[0][i] / bufq[0][i];
            cpu[i] = bufq[2][i] > 0 ? (double) ref[2][i] / bufq[2][i] : Double.NaN;
        }
        Map<String, String> r = new LinkedHashMap<>();
        double[] w = wall.clone();
        Arrays.sort(w);
        r.put(prefix + ".ref_wall_ratio", String.format(Locale.ROOT, "%.2f", medianOf(wall)));
        r.put(prefix + ".ref_wall_ratio_min", String.format(Locale.ROOT, "%.2f", w[0]));
        r.put(prefix + ".ref_wall_ratio_max", String.format(Locale.ROOT, "%.2f", w[n - 1]));
        r.put(prefix + ".ref_cpu_ratio", String.format(Locale.ROOT, "%.2f", medianOf(cpu)));
        return r;
    }

    private static double medianOf(double[] a) {
        double[] s = a.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /**
     * The Python binary itself: through pyenv's shim a run costs about 0.3 s more (the yardstick's
     * README), so {@code pyenv which python3} where pyenv is used, else {@code python3}.
     */
    static String python() {
        try {
            Process p = new ProcessBuilder("pyenv", "which", "python3").redirectErrorStream(false).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor() == 0 && !out.isEmpty() && Files.isExecutable(Path.of(out))) return out;
        } catch (IOException e) {
            // no pyenv
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "python3";
    }

    /**
     * Runs {@code command} {@code runs} times as a whole process: the first run's last output line
     * and the medians of wall time, max RSS and CPU, under keys starting with {@code prefix}.
     */
    Map<String, String> processes(String prefix, List<String> command, int runs) throws Exception {
        Map<String, String> r = new LinkedHashMap<>();
        long[] ns = new long[runs], rss = new long[runs], cpu = new long[runs];
        for (int i = 0; i < runs; i++) {
            Proc p = exec(command, true);
            if (p.rc != 0) { r.put(prefix + ".error", "exit " + p.rc + ": " + lastLine(p.err)); return r; }
            ns[i] = p.nanos;
            rss[i] = p.maxRssKb;
            cpu[i] = p.cpuNanos;
            if (i == 0) r.put(prefix + ".summary", lastLine(p.out));
        }
        r.put(prefix + ".ms", InProcess.ms(InProcess.median(ns)));
        r.put(prefix + ".rss_kb", Long.toString(InProcess.median(rss)));
        if (cpu[0] >= 0) r.put(prefix + ".cpu_ms", InProcess.ms(InProcess.median(cpu)));
        return r;
    }

    /** A finished child: exit code, output, wall time, and from /usr/bin/time max RSS and user+sys CPU (-1 if unknown). */
    record Proc(int rc, String out, String err, long nanos, long maxRssKb, long cpuNanos) {}

    /** Runs a command; with {@code measureRss} under {@code /usr/bin/time} (max RSS of the child) when present. */
    Proc exec(List<String> cmd, boolean measureRss) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        Path timeOut = null;
        if (measureRss && Files.isExecutable(Path.of("/usr/bin/time"))) {
            timeOut = Files.createTempFile("bufq-bench-time", ".txt");
            full.addAll(List.of("/usr/bin/time", "-o", timeOut.toString(), "-f", "%M %U %S"));
        }
        full.addAll(cmd);
        Path out = Files.createTempFile("bufq-bench-out", ".txt"), err = Files.createTempFile("bufq-bench-err", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(full).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            long t0 = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(20, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return new Proc(-1, "", "timed out after 20 minutes", 0, -1, -1);
            }
            long nanos = System.nanoTime() - t0;
            long kb = -1, cpu = -1;
            if (timeOut != null) {
                String t = Files.readString(timeOut).trim();
                String[] last = t.substring(t.lastIndexOf('\n') + 1).trim().split(" ");
                if (last.length == 3 && last[0].matches("\\d+")) {
                    kb = Long.parseLong(last[0]);
                    cpu = Math.round((Double.parseDouble(last[1]) + Double.parseDouble(last[2])) * 1e9);
                }
            }
            return new Proc(p.exitValue(), Files.readString(out), Files.readString(err), nanos, kb, cpu);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            if (timeOut != null) Files.deleteIfExists(timeOut);
        }
    }

    static String lastLine(String s) {
        String t = s.strip();
        int nl = t.lastIndexOf('\n');
        return nl < 0 ? t : t.substring(nl + 1);
    }
}
