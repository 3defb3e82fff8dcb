package bufq.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * DuckDB's costs, through the launcher as a user runs it: the DuckDB jar's size, what starting
 * DuckDB adds to a run ({@code --sql 'select 42'} against {@code -c 'help sql'}, which loads no
 * module either, one after the other in pairs), and the two table exports of 2,000 programs
 * ({@code dir-2k}) beside {@code -c summary} of the same directory (the read alone) and beside the
 * same export of nine modules and in a 64 MB Java heap (memory that does not grow with the modules).
 * Wall, user+sys CPU and max RSS; medians of {@code --runs} (default 5).
 *
 * <p>{@code bench/run --fleet [--runs N]}
 */
final class Fleet {
    private final Path root;
    private final ProcessRuns procs;
    private final PrintStream log;
    private final StringBuilder md = new StringBuilder();

    Fleet(Path root, PrintStream log) {
        this.root = root;
        this.procs = new ProcessRuns(root);
        this.log = log;
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(".");
        int runs = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--root" -> root = Path.of(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--fleet" -> { }
                default -> { System.err.println("fleet: unknown option " + args[i]); System.exit(2); }
            }
        }
        Fleet f = new Fleet(root.toAbsolutePath().normalize(), System.err);
        String report = f.run(runs);
        System.out.println(report);
        Path out = f.root.resolve("bench/target/fleet.md");
        Files.writeString(out, report, StandardCharsets.UTF_8);
        System.err.println("written to " + out);
    }

    String run(int runs) throws Exception {
        String bufq = root.resolve("bufq").toString();
        md.append("### DuckDB, Parquet and `sql`\n\n").append("Load average ").append(Report.loadAverage()).append(" at the start.\n\n");
        jar();
        Path dir2k = new Harness(root, log).programs();
        Path nine = root.resolve("../shared/corpus/jax-0.10.2/multi-module-dir").normalize();
        if (dir2k == null) throw new IllegalStateException("needs ../shared/corpus to make dir-2k");
        Path out = Files.createTempDirectory("bufq-fleet-bench");
        try {
            procs.exec(List.of(bufq, "--sql", "select 42"), false);   // the launcher's class-data archive, made once
            md.append("| run | wall ms (median) | CPU ms | max RSS MB |\n|---|---:|---:|---:|\n");
            List<String[]> pair = List.of(new String[] {"`--sql 'select 42'` (starts DuckDB)", bufq, "--sql", "select 42"},
                    new String[] {"`-c 'help sql'` (the same run without it)", bufq, "-c", "help sql"});
            long[][] diff = measure(pair, runs, out);
            md.append("| DuckDB's start, pair by pair (median) | ").append(ms(diff[0])).append(" | ").append(ms(diff[1])).append(" | |\n");
            List<String[]> exports = List.of(
                    new String[] {"`-c summary` of 2,000 programs (reads each)", bufq, "-c", "summary", dir2k.toString()},
                    new String[] {"`export parquet` of 2,000 programs", bufq, "-c", "export parquet " + out.resolve("pq") + " --force", dir2k.toString()},
                    new String[] {"`export duckdb` of 2,000 programs (a new file each run)", bufq, "-c", "export duckdb " + out.resolve("new.duckdb"), dir2k.toString()},
                    new String[] {"`export parquet` of 2,000 programs in a 64 MB heap (`BUFQ_JAVA_OPTS=-Xmx64m`)", "env",
                            "BUFQ_JAVA_OPTS=-Xmx64m", bufq, "-c", "export parquet " + out.resolve("pq64") + " --force", dir2k.toString()},
                    new String[] {"`export parquet` of 9 modules", bufq, "-c", "export parquet " + out.resolve("pq9") + " --force", nine.toString()});
            measure(exports, runs, out);
            md.append('\n');
        } finally {
            Generate.deleteTree(out);
        }
        return md.toString();
    }

    /** Runs the commands in turn, {@code runs} rounds; a row each; returns the per-round wall and CPU of the first less the second. */
    private long[][] measure(List<String[]> commands, int runs, Path out) throws Exception {
        int n = commands.size();
        long[][] wall = new long[n][runs], cpu = new long[n][runs], rss = new long[n][runs];
        for (int r = 0; r < runs; r++) {
            for (int c = 0; c < n; c++) {
                String[] cmd = commands.get(c);
                Files.deleteIfExists(out.resolve("new.duckdb"));
                log.println("fleet: " + cmd[0] + " (" + (r + 1) + "/" + runs + ")");
                ProcessRuns.Proc p = procs.exec(List.of(cmd).subList(1, cmd.length), true);
                if (p.rc() != 0) throw new IllegalStateException(cmd[0] + ": exit " + p.rc() + ": " + ProcessRuns.lastLine(p.err()));
                wall[c][r] = p.nanos();
                cpu[c][r] = p.cpuNanos();
                rss[c][r] = p.maxRssKb();
            }
        }
        for (int c = 0; c < n; c++) {
            md.append("| ").append(commands.get(c)[0]).append(" | ").append(ms(wall[c])).append(" | ").append(ms(cpu[c])).append(" | ")
                    .append(String.format(Locale.ROOT, "%.0f", InProcess.median(rss[c]) / 1024.0)).append(" |\n");
        }
        long[][] diff = new long[2][runs];
        for (int r = 0; r < runs; r++) {
            diff[0][r] = wall[0][r] - wall[Math.min(1, n - 1)][r];
            diff[1][r] = cpu[0][r] - cpu[Math.min(1, n - 1)][r];
        }
        return diff;
    }

    private void jar() throws IOException {
        Path lib = root.resolve("shell/target/lib");
        List<Path> jars = new ArrayList<>();
        try (Stream<Path> s = Files.list(lib)) {
            s.filter(p -> p.getFileName().toString().startsWith("duckdb_jdbc-")).forEach(jars::add);
        }
        long all = 0;
        try (Stream<Path> s = Files.list(lib)) {
            for (Path p : s.toList()) all += Files.size(p);
        }
        for (Path j : jars) {
            StringBuilder natives = new StringBuilder();
            try (ZipFile z = new ZipFile(j.toFile())) {
                for (ZipEntry e : java.util.Collections.list(z.entries())) {
                    if (e.getName().startsWith("libduckdb_java")) {
                        natives.append(natives.length() > 0 ? ", " : "").append(e.getName().substring("libduckdb_java.so_".length()))
                                .append(' ').append(mb(e.getSize())).append(" MB (").append(mb(e.getCompressedSize())).append(" packed)");
                    }
                }
            }
            md.append("`").append(j.getFileName()).append("`: ").append(mb(Files.size(j))).append(" MB of the ").append(mb(all))
                    .append(" MB in `shell/target/lib`; its native libraries: ").append(natives).append(".\n\n");
        }
    }

    private static String mb(long bytes) { return String.format(Locale.ROOT, "%.1f", bytes / 1048576.0); }

    private static String ms(long[] xs) { return String.format(Locale.ROOT, "%.0f", InProcess.median(xs.clone()) / 1e6); }
}
