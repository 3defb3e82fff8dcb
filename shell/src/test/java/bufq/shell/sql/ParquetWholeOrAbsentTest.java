package bufq.shell.sql;

import bufq.shell.session.TempFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code export parquet} is whole or absent, whatever kills it: a run killed while it wrote, or
 * between putting the old folder aside and the new one in place, leaves folders named as
 * temporaries of a dead process; the folder readers read holds one export whole, and the next
 * export removes what the killed one left.
 */
class ParquetWholeOrAbsentTest {
    private static final String ONE = SqlCommandTest.SEED;
    private static final String OTHER = Run.root().resolve("examples/jax-mlp").toString();

    @Test
    void aRunKilledWhileWritingLeavesThePreviousExportWhole(@TempDir Path tmp) throws Exception {
        Path target = tmp.resolve("night=1");
        assertEquals(0, Run.bufq("-c", "export parquet " + tmp + " --partition night=1", ONE).code());
        long dead = deadPid();
        // what a run killed while writing leaves beside the target: its folder, half written
        Path work = Files.createDirectory(tmp.resolve(".night=1." + dead + "@" + TempFiles.host() + "-k1.tmp"));
        Files.write(work.resolve("modules.parquet"), new byte[] {'P', 'A', 'R', '1', 0, 0});
        assertWhole(target, 1);
        Run again = Run.bufq("-c", "export parquet " + tmp + " --partition night=1 --force", ONE, OTHER);
        assertEquals(0, again.code(), again.err());
        assertWhole(target, 2);
        assertEquals(List.of("night=1"), names(tmp), "the killed run's folder is removed");
    }

    @Test
    void aRunKilledBetweenTheRenamesLeavesNoMix(@TempDir Path tmp) throws Exception {
        Path target = tmp.resolve("night=1");
        assertEquals(0, Run.bufq("-c", "export parquet " + tmp + " --partition night=1", ONE).code());
        Path staged = tmp.resolve("staged");
        assertEquals(0, Run.bufq("-c", "export parquet " + staged + " --partition night=1", ONE, OTHER).code());
        long dead = deadPid();
        // killed after the old folder went aside and before the new one came in: both whole, under temporary names
        Files.move(target, tmp.resolve(".night=1." + dead + "@" + TempFiles.host() + "-old1.tmp"));
        Files.move(staged.resolve("night=1"), tmp.resolve(".night=1." + dead + "@" + TempFiles.host() + "-k2.tmp"));
        Files.delete(staged);
        assertEquals(false, Files.exists(target), "absent, not mixed");
        Run next = Run.bufq("-c", "export parquet " + tmp + " --partition night=1", ONE);
        assertEquals(0, next.code(), next.err());
        assertWhole(target, 1);
        assertEquals(List.of("night=1"), names(tmp), "the killed run's folders are removed");
    }

    /** Every table of the folder is of the export its {@code runs.parquet} records: {@code modules} modules, no more, no fewer. */
    private static void assertWhole(Path target, long modules) throws Exception {
        assertEquals(modules, Run.client(null, "select modules from read_parquet('" + target.resolve("runs.parquet") + "')").get(0).get(0));
        for (String table : List.of("modules", "values", "allocations")) {
            Object n = Run.client(null, "select count(distinct handle) from read_parquet('" + target.resolve(table + ".parquet") + "')")
                    .get(0).get(0);
            assertEquals(modules, ((Number) n).longValue(), table);
        }
        assertEquals(List.of(), names(target).stream().filter(n -> n.startsWith(".")).toList(), "no temporary file in the export");
    }

    private static List<String> names(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The pid of a process that has ended: a killed run's. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }
}
