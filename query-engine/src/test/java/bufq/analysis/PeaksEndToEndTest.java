package bufq.analysis;

import bufq.analysis.peak.Peak;
import bufq.analysis.liveness.Liveness;
import bufq.dump.DumpLoader;
import bufq.dump.file.ModuleSource;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.Query;
import bufq.model.HloModule;
import bufq.model.MemorySpace;
import bufq.model.HloValue;
import bufq.analysis.liveness.Prominence;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rows the {@code peaks} command prints ({@link Peak#peaks}, which the command prints as it
 * is), end to end from the loaded module, against scipy's {@code find_peaks} on the occupancy Python
 * read from the dump text ({@code scipy-peaks.tsv}, see {@link PeaksScipyTest}); and {@code peak(N)}
 * in a query, spelled as each table's note spells it, against that table's row N.
 */
class PeaksEndToEndTest {
    private static List<String[]> golden() throws Exception {
        try (InputStream in = PeaksEndToEndTest.class.getResourceAsStream("scipy-peaks.tsv")) {
            assertNotNull(in, "scipy-peaks.tsv");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(l -> l.split("\t", -1)).toList();
        }
    }

    private static HloModule load(String relative) throws Exception {
        Path file = Corpus.require(relative);
        ModuleSource src = DumpLoader.discover(List.of(file)).get(0);
        return src.load();
    }

    private static long cell(Table t, int row, String column) { return (Long) t.cell(row, t.columnIndex(column)); }

    @Test
    void thePeaksTableFindsScipysPeaksOnEveryModule() throws Exception {
        int modules = 0, peaks = 0;
        for (String[] f : golden()) {
            HloModule m = load(f[0]);
            // The golden occupancy sums every memory space (Python read the dump's allocations whole);
            // bufq's peaks are the device memory's where a module has several, so those are not compared.
            if (MemorySpace.several(m)) continue;
            Table t = Peak.peaks(m, OptionalInt.empty(), Prominence.DEFAULT_SHARE);
            List<Integer> rows = new ArrayList<>();
            for (int r = 0; r < t.size(); r++) {
                if ((Boolean) t.cell(r, t.columnIndex("scipy"))) rows.add(r);
                else {
                    // bufq always lists the highest step; scipy does not at an end of the series, or when
                    // its prominence is below the share
                    assertEquals(0, r, f[0] + ": only the highest step may be missing from scipy");
                    assertTrue(cell(t, r, "step") == 0 || cell(t, r, "to") == m.steps() - 1
                            || cell(t, r, "prominence") < Prominence.DEFAULT_SHARE * cell(t, r, "bytes"), f[0] + ": " + t);
                }
            }
            rows.sort((a, b) -> Long.compare(cell(t, a, "step"), cell(t, b, "step")));
            String[] middles = f[3].isEmpty() ? new String[0] : f[3].split(",");
            String[] prominences = f[4].isEmpty() ? new String[0] : f[4].split(",");
            assertEquals(middles.length, rows.size(), f[0] + ": " + t);
            for (int i = 0; i < middles.length; i++) {
                int r = rows.get(i);
                long middle = Long.parseLong(middles[i]);
                assertTrue(cell(t, r, "step") <= middle && middle <= cell(t, r, "to"), f[0] + ": scipy's step " + middle + " in row " + r);
                assertEquals(Long.parseLong(prominences[i]), cell(t, r, "prominence"), f[0] + " row " + r);
            }
            modules++;
            peaks += rows.size();
        }
        assertTrue(modules >= 50, "compared " + modules + " modules (of one memory space)");
        assertTrue(peaks >= 40, "compared " + peaks + " peaks");
    }

    @Test
    void peakNSpelledAsTheTableSaysSelectsItsRowN() throws Exception {
        int checked = 0, optioned = 0;
        for (String[] f : golden()) {
            HloModule m = load(f[0]);
            if (Liveness.of(m).peakTime() < 0) continue;
            List<OptionalInt> colors = new ArrayList<>(List.of(OptionalInt.empty()));
            if (Liveness.of(m).colors().size() > 1) for (int c : Liveness.of(m).colors()) colors.add(OptionalInt.of(c));
            for (OptionalInt color : colors) {
                for (double share : new double[] {Prominence.DEFAULT_SHARE, 0.05}) {
                    Table t = Peak.peaks(m, color, share);
                    String spelling = null;
                    for (String n : t.notes()) if (n.startsWith("'live at ")) spelling = n.substring(9, n.indexOf("' selects"));
                    assertNotNull(spelling, f[0] + ": " + t.notes());
                    for (int r = 0; r < Math.min(4, t.size()); r++) {
                        String selector = spelling.replace("(N", "(" + (r + 1));
                        List<Long> byRank = ids(m, "values where live at " + selector);
                        List<Long> byStep = ids(m, "values where live at " + cell(t, r, "step"));
                        assertEquals(byStep, byRank, f[0] + ": " + selector + " is row " + (r + 1) + " of " + t);
                        checked++;
                        if (!selector.matches("peak\\(\\d+\\)")) optioned++;
                    }
                }
            }
        }
        assertTrue(checked > 100, "checked " + checked);
        assertTrue(optioned > 50, "with options: " + optioned);
    }

    private static List<Long> ids(HloModule m, String query) throws Exception {
        List<Long> out = new ArrayList<>();
        for (Object o : Query.compile(query, Catalog.standard()).select(new EvalContext(m))) out.add(((HloValue) o).id());
        return out;
    }
}
