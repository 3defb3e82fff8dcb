package bufq.shell.sql;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DuckDB's JDBC driver copies its 60 MB native library into the system's temporary folder
 * ({@code libduckdb_javaNNN.so}) and loads it, asking the JVM to delete it at exit: a killed run
 * leaves it there. Once loaded, the file is not needed (the library stays mapped), so bufq deletes
 * its own copy at once: the one this process has mapped ({@code /proc/self/maps}), in the
 * temporary folder, named as the driver names it. Where there is no {@code /proc} the driver's
 * delete at exit is all there is.
 */
final class NativeLibrary {
    private NativeLibrary() {}

    private static final Pattern MAPPED = Pattern.compile("\\s(/\\S*/libduckdb_java\\d+\\.so)(?: \\(deleted\\))?$");
    private static volatile boolean forgotten;

    /** Deletes the driver's copy of its library, once per process; what cannot be read or deleted stays. */
    static void forget() {
        if (forgotten) return;
        forgotten = true;
        Path maps = Path.of("/proc/self/maps");
        if (!Files.isReadable(maps)) return;
        try {
            Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toRealPath();
            for (String line : Files.readAllLines(maps)) {
                Matcher m = MAPPED.matcher(line);
                if (!m.find()) continue;
                Path lib = Path.of(m.group(1));
                if (lib.getParent() != null && lib.getParent().equals(tmp) && Files.isRegularFile(lib, LinkOption.NOFOLLOW_LINKS))
                    Files.deleteIfExists(lib);
            }
        } catch (IOException | RuntimeException e) {
            // left for the driver's delete at exit
        }
    }

    /** For tests: the libraries of DuckDB this process has mapped from files that still exist. */
    static List<Path> mapped() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().map(MAPPED::matcher).filter(Matcher::find)
                .filter(m -> !m.group(0).endsWith("(deleted)")).map(m -> Path.of(m.group(1))).filter(Files::exists).distinct().toList();
    }
}
