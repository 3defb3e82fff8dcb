package bufq.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Command line: {@code Programs --source DIR --count N --out DIR}. Writes a dump directory of N
 * programs, as a long JAX run leaves it, for {@code modules} and {@code fit} at scale: the
 * {@code module_NNNN.NAME.*-buffer-assignment*}, {@code -live-range} and {@code -memory-usage-report}
 * files of the source's programs, copied in turn under new module numbers and program names
 * ({@code jit_p0000}, ...). The contents are the source's, so every program stays a real one.
 */
public final class Programs {
    private Programs() {}

    private static final Pattern MODULE = Pattern.compile("module_(\\d+)\\.([^.]+)\\.(.*)");

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path source = null, dir = null;
        int count = -1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--source" -> source = Path.of(args[i + 1]);
                case "--count" -> count = Integer.parseInt(args[i + 1]);
                case "--out" -> dir = Path.of(args[i + 1]);
                default -> { err.println("programs: unknown option " + args[i]); return 2; }
            }
        }
        if (source == null || dir == null || count <= 0 || args.length % 2 != 0) {
            err.println("usage: programs --source DIR --count N --out DIR");
            return 2;
        }
        try {
            // the source's programs: module number -> its dump files (HLO text and objects left out)
            TreeMap<String, List<Path>> modules = new TreeMap<>();
            try (Stream<Path> s = Files.list(source)) {
                for (Path p : s.sorted().toList()) {
                    Matcher m = MODULE.matcher(p.getFileName().toString());
                    if (m.matches() && m.group(3).contains("after_optimizations-"))
                        modules.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(p);
                }
            }
            if (modules.isEmpty()) { err.println("programs: no module_NNNN.* dump files in " + source); return 1; }
            List<List<Path>> programs = new ArrayList<>(modules.values());
            Files.createDirectories(dir);
            long t0 = System.nanoTime();
            for (int i = 0; i < count; i++) {
                for (Path p : programs.get(i % programs.size())) {
                    Matcher m = MODULE.matcher(p.getFileName().toString());
                    if (!m.matches()) continue;
                    String name = String.format("module_%04d.jit_p%04d.%s", i, i, m.group(3));
                    Files.copy(p, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            out.printf("programs: %d programs in %s (%.1f s)%n", count, dir, (System.nanoTime() - t0) / 1e9);
            return 0;
        } catch (IOException e) {
            err.println("programs: " + e.getMessage());
            return 1;
        }
    }
}
