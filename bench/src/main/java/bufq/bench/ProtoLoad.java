package bufq.bench;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Issue 21's loading row: one module as a {@code .hlo.pb} against the text set of the same module,
 * in one warm JVM: {@code ProtoLoad HLO_PB TEXT_FILE [--runs N]}. A timed load includes reading the
 * values (the text's values file is read on demand, so it is asked for), and the figure is the
 * median per value. Prints {@code key=value} lines.
 */
public final class ProtoLoad {
    private ProtoLoad() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 3 && args[2].equals("--runs") ? Integer.parseInt(args[3]) : 9;
        for (int round = 0; round < 2; round++) {               // the first round warms the JIT
            for (String[] input : new String[][] {{"proto", args[0]}, {"text", args[1]}}) {
                long[] ns = new long[runs];
                int values = 0;
                for (int i = 0; i < runs; i++) {
                    System.gc();
                    long t0 = System.nanoTime();
                    HloModule m = DumpLoader.load(List.of(Path.of(input[1]))).get(0);
                    values = m.values().size();
                    ns[i] = System.nanoTime() - t0;
                }
                Arrays.sort(ns);
                if (round == 1) {
                    System.out.printf("%s_values=%d%n%s_load_ms=%.1f%n%s_us_per_value=%.1f%n", input[0], values,
                            input[0], ns[runs / 2] / 1e6, input[0], ns[runs / 2] / 1e3 / values);
                }
            }
        }
    }
}
