package bufq.shell.sql;

import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every module of the corpus, exported in one run (hundreds of modules: the lazy, bounded load), is
 * read back by a second DuckDB client, from the Parquet files and from the database, with the counts
 * and sums bufq's own queries print for each module.
 */
class RoundTripTest {
    /** Per table, what bufq's query prints for one module and the SQL aggregate that must equal it. */
    static final Map<String, String[]> CHECKS = new TreeMap<>(Map.of(
            "values", new String[] {"values show count(), sum(size), sum(logical_size)", "count(*), sum(size), sum(logical_size)"},
            "allocations", new String[] {"allocations show count(), sum(size)", "count(*), sum(size)"},
            "instructions", new String[] {"instructions show count(), sum(live_bytes)", "count(*), sum(live_bytes)"},
            "steps", new String[] {"steps show count(), sum(live_bytes), max(occupied_bytes)", "count(*), sum(live_bytes), max(occupied_bytes)"},
            "uses", new String[] {"uses show count()", "count(*)"},
            "events", new String[] {"events show count(), sum(bytes)", "count(*), sum(bytes)"}));

    /** Every folder of the corpus holding a dump's files, and the seeds. */
    static List<String> inputs() throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(Corpus.require(Corpus.dir()))) {
            walk.filter(Files::isDirectory).filter(RoundTripTest::holdsDumps).sorted().forEach(p -> out.add(p.toString()));
        }
        out.add(Run.root().resolve("examples/seeds").toString());
        return out;
    }

    private static boolean holdsDumps(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).anyMatch(n -> n.contains("buffer-assignment") || n.contains("memory-usage-report")
                    || n.endsWith(".hlo.pb") || n.endsWith(".xplane.pb"));
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void aSecondClientReadsWhatBufqPrintsForEveryModule(@TempDir Path tmp) throws Exception {
        List<String> inputs = inputs();
        Path pq = tmp.resolve("pq"), db = tmp.resolve("all.duckdb");
        // The whole corpus on a loaded machine can take longer than the default time limit; timing is not what this checks.
        List<String> args = new ArrayList<>(List.of("--format", "tsv", "-c", "set timeout 0", "-c", "export parquet " + pq, "-c", "export duckdb " + db,
                "-c", "modules show handle, values, allocations, total_bytes, events"));
        args.addAll(inputs);
        Run export = Run.bufq(args.toArray(String[]::new));
        assertEquals(0, export.code(), export.err());
        List<String[]> modules = export.tsv();
        assertTrue(modules.size() > 100, "the whole corpus: " + modules.size() + " modules");

        // What bufq prints, module by module.
        List<String> ask = new ArrayList<>(List.of("--format", "tsv", "-c", "set timeout 0"));
        for (int i = 1; i <= modules.size(); i++) {
            ask.addAll(List.of("-c", "use " + i));
            for (String[] c : CHECKS.values()) ask.addAll(List.of("-c", c[0]));
        }
        ask.addAll(inputs);
        Run own = Run.bufq(ask.toArray(String[]::new));
        assertEquals(0, own.code(), own.err());
        String[] lines = own.out().split("\n");
        assertEquals(modules.size() * CHECKS.size() * 2, lines.length, "a header and a row per query");

        for (String source : List.of("read_parquet('" + pq + "/TABLE.parquet')", "all_db.main.\"TABLE\"")) {
            String attach = source.startsWith("all_db") ? "attach '" + db + "' as all_db (read_only); " : "";
            int line = 0;
            Map<String, Map<String, String>> got = new TreeMap<>();
            for (Map.Entry<String, String[]> c : CHECKS.entrySet()) {
                String from = source.replace("TABLE", c.getKey());
                // a table with no rows at all has no Parquet file
                if (attach.isEmpty() && !Files.exists(pq.resolve(c.getKey() + ".parquet"))) {
                    got.put(c.getKey(), Map.of());
                    continue;
                }
                Map<String, String> per = new TreeMap<>();
                for (List<Object> r : Run.client(null, attach + "select handle, " + c.getValue()[1] + " from " + from + " group by handle"))
                    per.put((String) r.get(0), join(r.subList(1, r.size())));
                got.put(c.getKey(), per);
            }
            for (String[] m : modules) {
                for (Map.Entry<String, String[]> c : CHECKS.entrySet()) {
                    String printed = lines[line + 1].replace('\t', ',');
                    line += 2;
                    String read = got.get(c.getKey()).get(m[0]);
                    // a module with no rows in a table has no group: bufq prints a count of 0 and null sums
                    if (read == null) read = printed.startsWith("0") ? printed : "absent";
                    assertEquals(printed, read, source + ": " + c.getKey() + " of " + m[0]);
                }
            }
            List<List<Object>> mods = Run.client(null, attach + "select handle, \"values\", allocations, total_bytes, events from "
                    + source.replace("TABLE", "modules") + " order by handle");
            assertEquals(modules.size(), mods.size(), source);
            Map<String, String> byHandle = new TreeMap<>();
            for (List<Object> r : mods) byHandle.put((String) r.get(0), join(r));
            for (String[] m : modules) assertEquals(String.join(",", m), byHandle.get(m[0]), source + ": modules row");
        }
    }

    /** Cells as bufq's TSV prints them: numbers plain, null as null. */
    private static String join(List<Object> cells) {
        List<String> s = new ArrayList<>();
        for (Object o : cells) s.add(o == null ? "null" : o.toString());
        return String.join(",", s);
    }
}
