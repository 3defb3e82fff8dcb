package bufq.analysis;

import bufq.dump.DumpLoader;
import bufq.dump.file.ModuleSource;
import bufq.analysis.liveness.Prominence;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bufq's peaks against scipy's on every corpus module with live ranges. {@code scipy-peaks.tsv} was
 * written by {@code src/test/python/scipy_peaks.py}: occupied bytes per step read from the dump
 * text by Python, then {@code scipy.signal.find_peaks(x, prominence=x.max() / 5)}.
 */
class PeaksScipyTest {
    @Test
    void sameSeriesSamePeaksSameProminencesOnEveryModule() throws Exception {
        Path corpus = Corpus.require(Corpus.dir());
        List<String> lines;
        try (InputStream in = PeaksScipyTest.class.getResourceAsStream("scipy-peaks.tsv")) {
            assertNotNull(in, "scipy-peaks.tsv");
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        int modules = 0, peaks = 0;
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            Path file = corpus.resolve(f[0]);
            ModuleSource src = DumpLoader.discover(List.of(file)).get(0);
            long[] series = RawDump.read(src.files()).occupancy();
            assertEquals(Integer.parseInt(f[1]), series.length, f[0]);
            long max = 0;
            for (long b : series) max = Math.max(max, b);
            assertEquals(Long.parseLong(f[2]), max, f[0]);
            List<String> middles = new ArrayList<>(), prominences = new ArrayList<>();
            for (Prominence.Peak p : Prominence.prominent(series, Prominence.DEFAULT_SHARE)) {
                middles.add(Integer.toString(p.middle()));
                prominences.add(Long.toString(p.prominence()));
            }
            assertEquals(f[3], String.join(",", middles), f[0]);
            assertEquals(f[4], String.join(",", prominences), f[0]);
            modules++;
            peaks += middles.size();
        }
        assertTrue(modules >= 60, "compared " + modules + " modules");
        assertTrue(peaks >= 40, "compared " + peaks + " peaks");
    }
}
