package bufq.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
}
