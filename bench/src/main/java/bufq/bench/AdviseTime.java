package bufq.bench;

import bufq.api.Advise;
import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.model.HloModule;
import bufq.model.TilingModel;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How long {@code advise} takes on one module, in a warm JVM: {@code AdviseTime PATH [--runs N]
 * [--warmup N]}. The module is loaded once (its values, uses and live ranges read); each run is what
 * the command computes: every built-in rule measured with the what-if engine, the report, and the
 * remedy for the largest allocation at the peak. Medians of wall time and of the CPU time of every Java thread (the what-if engine's pool included)
 * (on a shared machine CPU time moves far less than wall time). Prints {@code key=value} lines.
 */
public final class AdviseTime {
    private AdviseTime() {}

    public static void main(String[] args) throws Exception {
        int runs = 7, warmup = 3;
        for (int i = 1; i + 1 < args.length; i += 2) {
            if (args[i].equals("--runs")) runs = Integer.parseInt(args[i + 1]);
            else if (args[i].equals("--warmup")) warmup = Integer.parseInt(args[i + 1]);
        }
        long l0 = System.nanoTime();
        HloModule m = DumpLoader.load(List.of(Path.of(args[0]))).get(0);
        int values = m.values().size();
        m.values().forEach(v -> v.uses());
        long load = System.nanoTime() - l0;
        long[] wall = new long[runs], cpu = new long[runs];
        int rows = 0;
        for (int i = 0; i < warmup + runs; i++) {
            long c0 = ProtoLoad.allThreadsCpu(), t0 = System.nanoTime();
            var list = Advise.of(m, new Advise.Ask(List.of(), null, null, List.of(m), null, Catalog.standard(), TilingModel.TPU, n -> null));
            rows = list == null ? 0 : list.rows().size();
            if (i < warmup) continue;
            wall[i - warmup] = System.nanoTime() - t0;
            cpu[i - warmup] = ProtoLoad.allThreadsCpu() - c0;
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        System.out.printf(Locale.ROOT, "module=%s%nvalues=%d%nload_ms=%.0f%nadvise_wall_ms=%.0f%nadvise_cpu_ms=%.0f%n"
                        + "advise_wall_ms_max=%.0f%ntables=%d%n", args[0], values, load / 1e6, wall[runs / 2] / 1e6,
                cpu[runs / 2] / 1e6, wall[runs - 1] / 1e6, rows);
    }
}
