package bufq.shell.sql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DuckDB loads with the first statement that needs it: {@code -c summary}, {@code -c help} and an
 * export to pprof load none of its classes (nor JDBC's), while {@code -c 'sql select 1'} does (so the
 * check can fail). Seen in child JVMs running the real Main with class-load logging.
 */
class LazyDuckDbTest {
    @Test
    void onlySqlLoadsDuckDb(@TempDir Path tmp) throws Exception {
        String seed = SqlCommandTest.SEED;
        List<String[]> runs = List.of(new String[] {"-c", "summary", "-c", "help export", "-c", "export perfetto " + tmp.resolve("t.json"), seed},
                new String[] {"-c", "sql select 1"});
        List<Process> started = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (String[] args : runs) {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xlog:class+load=info", "-cp", System.getProperty("java.class.path"),
                    "bufq.shell.cli.Main"));
            cmd.addAll(List.of(args));
            Path log = Files.createTempFile(tmp, "run", ".log");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().put("XDG_CONFIG_HOME", tmp.toString());
            started.add(pb.start());
            logs.add(log);
        }
        for (Process p : started) assertTrue(p.waitFor(120, TimeUnit.SECONDS), "a run ended");
        String plain = Files.readString(logs.get(0), StandardCharsets.UTF_8), sql = Files.readString(logs.get(1), StandardCharsets.UTF_8);
        assertEquals(0, started.get(0).exitValue(), plain.lines().filter(l -> !l.startsWith("[")).toList().toString());
        assertTrue(plain.contains("bufq.shell.cli.Bufq"), "class logging works");
        assertFalse(plain.contains(" org.duckdb."), "DuckDB classes were loaded by a run without SQL");
        assertFalse(plain.contains(" java.sql."), "JDBC was loaded by a run without SQL");
        assertFalse(plain.contains(" bufq.shell.sql."), "bufq.shell.sql was loaded by a run without SQL");
        assertEquals(0, started.get(1).exitValue(), sql.lines().filter(l -> !l.startsWith("[")).toList().toString());
        assertTrue(sql.contains(" org.duckdb.DuckDBConnection"), "sql loads DuckDB");
    }
}
