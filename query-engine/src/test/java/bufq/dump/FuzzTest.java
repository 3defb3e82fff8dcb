package bufq.dump;

import bufq.dump.file.LoadException;
import bufq.analysis.liveness.Liveness;
import bufq.fuzz.Fuzz;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Mangled dumps never escape as anything but a {@link LoadException} or warnings: no stack trace
 * can reach the user. Seeds are fixed so a failure reproduces.
 */
class FuzzTest {
    static final String[] PIECES = {"{", "}", "(", ")", ":", ",", " ", "\n", "<", ">", "@", "%", "-", "=", "9",
            "99999999999999999999", "-1", "{1,0", "T(", "bytes", "(phi)", "├── ", "\u00d7", "\"", "\\", "/*", "*/", "\t"};

    @Test
    void mangledDumpsOnlyWarnOrRefuse() throws Exception {
        List<String[]> seeds = new ArrayList<>();
        seeds.add(new String[] {BadInputTest.NAME, BadInputTest.GOOD});
        for (String f : List.of("late2025/module_0007.jit__unstack.cpu_after_optimizations-buffer-assignment.txt",
                "late2025/module_0007.jit__unstack.cpu_after_optimizations-memory-usage-report.txt",
                "tpu/module_0059.jit_dynamic_slice.cl_772339112.after_optimizations-buffer-assignment.txt",
                "jax010-mlp/module_0012.jit_mlp.cpu_after_optimizations-live-range.txt",
                "jax010-mlp/module_0012.jit_mlp.cpu_after_optimizations-buffer-assignment-values.txt",
                "old2024/module_0042.jit_split.sm_8.0_gpu_after_optimizations-buffer-assignment.txt",
                "framed-stdout.log")) {
            java.nio.file.Path p = Fixtures.path(f);
            seeds.add(new String[] {p.getFileName().toString(), Files.readString(p)});
        }
        // The fuzzers' own properties: -Dbufq.fuzz.seed replays, -Dbufq.fuzz.scale runs more cases.
        long seedUsed = Fuzz.seed();
        Random rnd = new Random(seedUsed);
        for (int round = 0, rounds = Fuzz.cases(3000); round < rounds; round++) {
            String[] seed = seeds.get(round % seeds.size());
            String text = mutate(seed[1], rnd, 1 + rnd.nextInt(4));
            try {
                HloModule m = DumpLoader.loadText(seed[0], text);
                Liveness.of(m);
                Liveness.of(m).peakTime();
                m.totalBytes();
                m.users("x");
            } catch (LoadException e) {
                if (e.getMessage().contains("\n")) fail("seed " + seedUsed + ", round " + round + ": multi-line message: " + e.getMessage());
            } catch (RuntimeException e) {
                AssertionError err = new AssertionError("seed " + seedUsed + " (-Dbufq.fuzz.seed), round " + round + " on " + seed[0] + ": " + e, e);
                err.addSuppressed(new RuntimeException("input:\n" + text));
                throw err;
            }
        }
    }

    static String mutate(String s, Random rnd, int times) {
        StringBuilder b = new StringBuilder(s);
        for (int k = 0; k < times && b.length() > 0; k++) {
            int at = rnd.nextInt(b.length());
            switch (rnd.nextInt(6)) {
                case 0 -> b.deleteCharAt(at);
                case 1 -> b.insert(at, PIECES[rnd.nextInt(PIECES.length)]);
                case 2 -> b.setLength(at);
                case 3 -> {
                    int end = Math.min(b.length(), at + 1 + rnd.nextInt(40));
                    b.delete(at, end);
                }
                case 4 -> {
                    int ls = b.lastIndexOf("\n", at) + 1;
                    int le = b.indexOf("\n", ls);
                    if (le < 0) le = b.length();
                    b.insert(ls, b.substring(ls, le) + "\n");
                }
                default -> b.setCharAt(at, (char) ('0' + rnd.nextInt(10)));
            }
        }
        return b.toString();
    }
}
