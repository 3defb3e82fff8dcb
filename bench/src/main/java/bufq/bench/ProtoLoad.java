package bufq.bench;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The proto loading row: one module as a {@code .hlo.pb} against the text set of the same module,
 * in one warm JVM: {@code ProtoLoad HLO_PB TEXT_FILE [--runs N] [--warmup N]}. The two loads take
 * turns (a machine whose load drifts treats them alike); a load includes reading the values (the
 * text's values file is read on demand, so it is asked for). Medians per value of wall time, of
 * the loading thread's CPU time, and of the CPU time of every Java thread (the loading thread and
 * the pool threads both readers hand parts to; GC and JIT threads are not Java threads): on a
 * shared machine CPU time moves far less than wall time. (The JVM's process CPU time counts in
 * 10 ms ticks, too coarse for a 10 ms load.) Prints {@code key=value} lines.
 */
public final class ProtoLoad {
    private ProtoLoad() {}

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU time of every live Java thread (threads that ended are not counted: the pool's stay). */
    static long allThreadsCpu() {
        long sum = 0;
        for (long id : THREADS.getAllThreadIds()) {
            long t = THREADS.getThreadCpuTime(id);
            if (t > 0) sum += t;
        }
        return sum;
    }

    public static void main(String[] args) throws Exception {
        int runs = 15, warmup = 40;
        for (int i = 2; i + 1 < args.length; i += 2) {
            if (args[i].equals("--runs")) runs = Integer.parseInt(args[i + 1]);
            else if (args[i].equals("--warmup")) warmup = Integer.parseInt(args[i + 1]);
        }
        String[] names = {"proto", "text"};
        List<Path> proto = List.of(Path.of(args[0])), text = List.of(Path.of(args[1]));
        for (int i = 0; i < warmup; i++) {      // the JIT compiles both readers before anything is timed
            DumpLoader.load(proto).get(0).values().size();
            DumpLoader.load(text).get(0).values().size();
        }
        long[][] wall = new long[2][runs], thread = new long[2][runs], process = new long[2][runs];
        int[] values = new int[2];
        for (int i = 0; i < runs; i++) {
            for (int k = 0; k < 2; k++) {
                System.gc();
                long p0 = allThreadsCpu(), c0 = THREADS.getCurrentThreadCpuTime(), t0 = System.nanoTime();
                HloModule m = DumpLoader.load(k == 0 ? proto : text).get(0);
                values[k] = m.values().size();
                wall[k][i] = System.nanoTime() - t0;
                thread[k][i] = THREADS.getCurrentThreadCpuTime() - c0;
                process[k][i] = allThreadsCpu() - p0;
            }
        }
        for (int k = 0; k < 2; k++) {
            String n = names[k];
            System.out.printf(Locale.ROOT, "%s_values=%d%n", n, values[k]);
            System.out.printf(Locale.ROOT, "%s_load_ms=%.2f%n%s_thread_cpu_ms=%.2f%n%s_all_threads_cpu_ms=%.2f%n",
                    n, InProcess.median(wall[k]) / 1e6, n, InProcess.median(thread[k]) / 1e6, n, InProcess.median(process[k]) / 1e6);
            System.out.printf(Locale.ROOT, "%s_us_per_value=%.2f%n%s_thread_cpu_us_per_value=%.2f%n%s_all_threads_cpu_us_per_value=%.2f%n",
                    n, InProcess.median(wall[k]) / 1e3 / values[k], n, InProcess.median(thread[k]) / 1e3 / values[k],
                    n, InProcess.median(process[k]) / 1e3 / values[k]);
        }
    }
}
