package bufq.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Time to the first prompt as a person sees it: {@code ./bufq [PATH]} started in a
 * detached tmux session, its screen read every few milliseconds until the prompt ({@code ...)>})
 * is on it; the wall time from launch to that screen, and the CPU the JVM had used by then (from
 * {@code /proc}: steadier than wall time on a shared machine). Each session is left with Ctrl-D,
 * as a user leaves; the first session (the files into the page cache, the jar's classes) is not
 * counted.
 */
final class PromptTime {
    private PromptTime() {}

    /** Seconds one run may take to show its prompt before it counts as failed. */
    static final long TIMEOUT_MS = 60_000;

    /**
     * {@code runs} timed sessions of {@code command} after one untimed; keys {@code PREFIX.ms},
     * {@code .ms_min}, {@code .ms_max}, {@code .cpu_ms} (medians), or {@code PREFIX.error}.
     */
    static Map<String, String> measure(String prefix, List<String> command, Path dir, int runs) throws Exception {
        Map<String, String> r = new LinkedHashMap<>();
        if (!Files.isExecutable(Path.of("/usr/bin/tmux")) && !onPath("tmux")) {
            r.put(prefix + ".error", "tmux not installed");
            return r;
        }
        long[] ms = new long[runs], cpu = new long[runs];
        for (int i = -1; i < runs; i++) {
            long[] one = once(command, dir);
            if (one == null) {
                r.put(prefix + ".error", "no prompt within " + TIMEOUT_MS / 1000 + " s");
                return r;
            }
            if (i < 0) continue;
            ms[i] = one[0];
            cpu[i] = one[1];
        }
        r.put(prefix + ".ms", InProcess.ms(InProcess.median(ms)));
        r.put(prefix + ".ms_min", InProcess.ms(Arrays.stream(ms).min().orElse(0)));
        r.put(prefix + ".ms_max", InProcess.ms(Arrays.stream(ms).max().orElse(0)));
        r.put(prefix + ".cpu_ms", InProcess.ms(InProcess.median(cpu)));
        return r;
    }

    /** One session: {wall nanos to the prompt, JVM CPU nanos then}, or null when no prompt came. */
    private static long[] once(List<String> command, Path dir) throws Exception {
        String session = "bufq-bench-prompt-" + ProcessHandle.current().pid();
        List<String> start = new ArrayList<>(List.of("tmux", "new-session", "-d", "-s", session, "-x", "160", "-y", "50",
                "-c", dir.toString()));
        start.add(String.join(" ", command.stream().map(PromptTime::quote).toList()));
        long t0 = System.nanoTime();
        run(start);
        try {
            long deadline = t0 + TIMEOUT_MS * 1_000_000L;
            while (System.nanoTime() < deadline) {
                if (run(List.of("tmux", "capture-pane", "-p", "-t", session)).contains(")>")) {
                    long wall = System.nanoTime() - t0;
                    long cpu = jvmCpuNanos(session);
                    run(List.of("tmux", "send-keys", "-t", session, "C-d"));
                    for (int i = 0; i < 600 && sessionAlive(session); i++) Thread.sleep(50);
                    return new long[]{wall, cpu};
                }
                Thread.sleep(5);
            }
            return null;
        } finally {
            if (sessionAlive(session)) run(List.of("tmux", "kill-session", "-t", session));
        }
    }

    /** user+sys CPU of the java process under the session's pane, from /proc; -1 when not found. */
    private static long jvmCpuNanos(String session) throws Exception {
        long pane = Long.parseLong(run(List.of("tmux", "list-panes", "-t", session, "-F", "#{pane_pid}")).trim());
        Optional<ProcessHandle> jvm = ProcessHandle.of(pane).stream()
                .flatMap(p -> Stream.concat(Stream.of(p), p.descendants()))
                .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false)).findFirst();
        if (jvm.isEmpty()) return -1;
        String stat = Files.readString(Path.of("/proc/" + jvm.get().pid() + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields 14 and 15 of stat (utime, stime), counted after the command's closing parenthesis
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        return ticks * 10_000_000L;   // USER_HZ is 100 on Linux
    }

    private static boolean sessionAlive(String session) throws Exception {
        Process p = new ProcessBuilder("tmux", "has-session", "-t", session).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor() == 0;
    }

    private static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static boolean onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String d : path.split(":")) if (Files.isExecutable(Path.of(d, name))) return true;
        return false;
    }
}
