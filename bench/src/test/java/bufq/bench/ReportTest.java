package bufq.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's rows from a harness's results: the cold `summary` row shows its runs' spread beside the median. */
class ReportTest {
    @Test
    void theColdSummaryRowShowsTheSpreadOfItsRuns() {
        Harness.Input big = new Harness.Input("four-1m", "four-file 1m", Path.of("x"), "four", "1m");
        Harness.Input small = new Harness.Input("four-28mb", "28 MB module (4 files)", Path.of("y"), "28mb", "");
        Map<String, Map<String, String>> results = Map.of(
                "four-1m", Map.of("cold.runs", "3", "cold.ms", "2806.7", "cold.ms_min", "2690.1", "cold.ms_max", "3050.2"),
                "four-28mb", Map.of("cold.runs", "5", "cold.ms", "588.5", "cold.ms_min", "560.0", "cold.ms_max", "640.9"));
        String md = new Report(List.of(big, small), results, List.of("1m"), 5, "0.5").markdown();
        assertTrue(md.contains("| load, cold `bufq -c summary` process (ms) | 2806.7 (median of 3; runs 2690.1-3050.2) |"), md);
        assertTrue(md.contains("| load, cold `bufq -c summary` process (ms) | 588.5 (runs 560.0-640.9) |"), md);
    }
    @Test
    void theYardstickRatioIsTakenPairByPair() {
        // wall, RSS, CPU per run; pair i is run i of each
        long[][] bufq = {{100, 200, 400}, {0, 0, 0}, {90, 90, 90}};
        long[][] ref = {{300, 300, 1600}, {0, 0, 0}, {180, 270, 360}};
        Map<String, String> p = ProcessRuns.pairs("cold", bufq, ref);
        assertEquals("3.00", p.get("cold.ref_wall_ratio"), p.toString());   // 3.0, 1.5, 4.0: the median of the ratios, not of the times
        assertEquals("1.50", p.get("cold.ref_wall_ratio_min"));
        assertEquals("4.00", p.get("cold.ref_wall_ratio_max"));
        assertEquals("3.00", p.get("cold.ref_cpu_ratio"));

        Harness.Input small = new Harness.Input("four-28mb", "28 MB module (4 files)", Path.of("y"), "28mb", "");
        Map<String, String> m = new HashMap<>(p);
        m.putAll(Map.of("cold.ms", "200.0", "cold.ms_min", "100.0", "cold.ms_max", "400.0", "cold.cpu_ms", "90.0",
                "cold.rss_kb", "100000", "ref.ms", "300.0", "ref.cpu_ms", "270.0", "ref.rss_kb", "110000"));
        String md = new Report(List.of(small), Map.of("four-28mb", m), List.of("1m"), 7, "0.5").markdown();
        assertTrue(md.contains("| 28 MB `-c 'summary'`: >= 3x ref.py, less CPU, RSS <= ref.py's | 200.0 (100.0-400.0) | 300.0 | "
                + "3.00x (1.50-4.00) | 90.0 | 270.0 | 102.4 | 112.6 | wall met, CPU met, RSS met |"), md);
    }
}
