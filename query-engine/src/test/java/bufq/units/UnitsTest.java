package bufq.units;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one unit table: what users type, what XLA prints, and what bufq prints. */
public class UnitsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "16384|16384", "512B|512", "16KiB|16384", "16kib|16384", "16 GiB|17179869184", "16gib|17179869184",
            "1.5MiB|1572864", "2GiB|2147483648", "7000000KiB|7168000000", "80GB|80000000000", "80gb|80000000000",
            "16KB|16000", "1MB|1000000", "8M|8388608", "15.48G|16621523436", "3.47E|4000637620985759007",
            "4,096B|4096", "1_000_000|1000000", "4608000000 bytes|4608000000", "1 byte|1"})
    void parsesWhatUsersType(String text, long bytes) {
        assertEquals(bytes, Units.parse(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "lots|expected a size", "16XB|unknown size unit 'XB'", "-4GiB|cannot be negative",
            "99999999999999999999999|past 2^63", "9EiB|past 2^63", "''|expected a size"})
    void refusesSayingWhatWasExpected(String text, String says) {
        SizeException e = assertThrows(SizeException.class, () -> Units.parse(text));
        assertTrue(e.getMessage().contains(says), e.getMessage());
    }

    @Test
    void aCapacityNeedsAUnit() {
        SizeException e = assertThrows(SizeException.class, () -> Units.parse("16", true));
        assertTrue(e.getMessage().contains("16B") && e.getMessage().contains("16GiB"), e.getMessage());
        assertEquals(16, Units.parse("16B", true));
    }

    @Test
    void theTableIsPowersOf1000And1024() {
        assertEquals(1000L, Unit.KB.bytes());
        assertEquals(1L << 10, Unit.KIB.bytes());
        assertEquals(1L << 20, Unit.M.bytes());
        assertEquals(1_000_000_000_000L, Unit.TB.bytes());
        assertEquals(1L << 60, Unit.E.bytes());
        assertEquals(Unit.GIB, Unit.of("gIb"));
        assertEquals(Unit.B, Unit.of("bytes"));
        assertNull(Unit.of("apples"));
        for (Unit u : Unit.values()) assertEquals(u, Unit.of(u.symbol().toLowerCase(Locale.ROOT)), u.symbol());
    }

    /** The figure of a real TPU paste: the truncating divisions make 15.48G this interval, not 15.48 * 2^30 +- 0.005 GiB. */
    @Test
    void printedSizesAreTheCountsThatPrintSo() {
        PrintedSize g = Units.printed("15.48G");
        assertEquals(16_616_783_872L, g.low());
        assertEquals(16_627_269_631L, g.high());
        assertEquals(g, new PrintedSize("15.48G", g.low(), g.high()));
        PrintedSize mib = Units.printed("6.00MiB");
        assertEquals(6139L * 1024, mib.low());
        assertEquals(6150L * 1024 - 1, mib.high());
        PrintedSize exact = Units.printed("337385120B");
        assertTrue(exact.isExact());
        assertEquals(337385120L, exact.low());
        assertEquals(4608000000L, Units.printed("4,608,000,000 bytes").low());
        assertNull(Units.printed("six"));
        assertNull(Units.printed("12 apples"));
        assertNull(Units.printed("1.5B"));
        assertThrows(SizeException.class, () -> Units.printed("-18.53K"));
        assertThrows(SizeException.class, () -> Units.printed("99999999999999999999999 bytes"));
    }

    /**
     * Every printed size holds exactly the counts TSL's HumanReadableNumBytes prints so, computed
     * here independently the way tsl/platform/numbers.cc does: divide by 1024 (truncating) while
     * at least 1024^2 is left, then printf "%.1f" (KiB) or "%.2f" of that over 1024.0, where the
     * quotient is exact in binary and glibc rounds an exact tie to even.
     */
    @Test
    void intervalsMatchTslsPrinterAtTheirEdges() {
        SplittableRandom r = new SplittableRandom(41);
        for (int i = 0; i < 4_000; i++) {
            long n = (r.nextLong() >>> r.nextInt(2, 62)) + 1024;
            if (n < 1024) continue;
            String text = tsl(n);
            PrintedSize p = Units.printed(text);
            assertTrue(p.contains(n), text + " holds " + n + ": " + p);
            assertEquals(text, tsl(p.low()), "low edge of " + text);
            assertEquals(text, tsl(p.high()), "high edge of " + text);
            if (p.low() > 1024) assertFalse(text.equals(tsl(p.low() - 1)), "below " + text);
            if (p.high() < Long.MAX_VALUE) assertFalse(text.equals(tsl(p.high() + 1)), "above " + text);
        }
    }

    /** tsl's HumanReadableNumBytes (tsl/platform/numbers.cc), simulated: the oracle of every printed size. */
    public static String tsl(long n) {
        if (n < 1024) return n + "B";
        String units = "KMGTPE";
        int u = 0;
        while (n >= 1024L * 1024) {
            n /= 1024;
            u++;
        }
        BigDecimal v = BigDecimal.valueOf(n).divide(BigDecimal.valueOf(1024));   // exact
        v = v.setScale(u == 0 ? 1 : 2, RoundingMode.HALF_EVEN);
        return v.toPlainString() + units.charAt(u) + "iB";
    }

    @ParameterizedTest
    @CsvSource({"0,0B", "1023,1023B", "1024,1.0KiB", "4096,4.0KiB", "1536,1.5KiB", "84737228,80.8MiB",
            "1048570,1.0MiB", "1048524,1023.9KiB", "1073741824,1.0GiB", "-2048,-2.0KiB", "-2486630852,-2.3GiB",
            "9223372036854775807,8.0EiB", "-9223372036854775808,-9223372036854775808B"})
    void humanSizes(long bytes, String expected) {
        assertEquals(expected, Units.human(bytes));
    }

    /** One decimal as java.util.Formatter writes it, without loading it (start-up cost). */
    @Test
    void oneDecimalIsWhatFormatWrites() {
        SplittableRandom r = new SplittableRandom(34);
        for (int i = 0; i < 200_000; i++) {
            double v = i % 2 == 0 ? 1 + r.nextDouble() * 1023 : (1 + r.nextInt(10_240)) / 10.0 + (r.nextInt(3) - 1) * 0.05;
            if (v < 1) continue;
            assertEquals(String.format(Locale.ROOT, "%.1f", v), Units.oneDecimal(v), "for " + v);
        }
        for (double v : new double[] {1, 1.05, 1.25, 1.95, 9.95, 99.95, 1023.95, 1023.94999, 7.99999999})
            assertEquals(String.format(Locale.ROOT, "%.1f", v), Units.oneDecimal(v), "for " + v);
    }

    @Test
    void groupedIsTheSameInEveryLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertEquals("6,532,939,776", Units.grouped(6_532_939_776L));
            assertEquals("-1,000", Units.grouped(-1000));
            assertEquals("999", Units.grouped(999));
            assertEquals("79 790 088", Units.grouped(79_790_088, ' '));
        } finally {
            Locale.setDefault(before);
        }
    }

    /**
     * No second size parser or grouped format: outside this package no main source matches a unit
     * word in a switch or comparison, nor groups digits with a format string.
     */
    @Test
    void noOtherSizeParserInTheSources() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        if (root.getFileName().toString().equals("query-engine")) root = root.getParent();
        Pattern unitWord = Pattern.compile("(case\\s+|match\\(|equals(IgnoreCase)?\\(|startsWith\\(|endsWith\\()\\s*\"(?i:[kmgtpe]i?b)\"");
        Pattern grouping = Pattern.compile("\"[^\"]*%,d");
        List<String> found = new ArrayList<>();
        int files = 0;
        for (String module : List.of("query-engine", "shell", "bench")) {
            Path src = root.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(src)) continue;
            try (Stream<Path> s = Files.walk(src)) {
                for (Path p : (Iterable<Path>) s.filter(f -> f.toString().endsWith(".java"))::iterator) {
                    if (p.toString().contains("/bufq/units/")) continue;
                    files++;
                    List<String> lines = Files.readAllLines(p);
                    for (int i = 0; i < lines.size(); i++)
                        if (unitWord.matcher(lines.get(i)).find() || grouping.matcher(lines.get(i)).find())
                            found.add(root.relativize(p) + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertTrue(files > 100, "the sources were found under " + root + " (" + files + " files)");
        assertTrue(found.isEmpty(), "size units or digit grouping outside bufq.units:\n" + String.join("\n", found));
    }
}
