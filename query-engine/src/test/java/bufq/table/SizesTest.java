package bufq.table;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Byte counts for people, written without java.util.Formatter as it would write them (issue 34). */
class SizesTest {
    @Test
    void oneDecimalIsWhatFormatWrites() {
        SplittableRandom r = new SplittableRandom(34);
        for (int i = 0; i < 200_000; i++) {
            double v = i % 2 == 0 ? 1 + r.nextDouble() * 1023 : (1 + r.nextInt(10_240)) / 10.0 + (r.nextInt(3) - 1) * 0.05;
            if (v < 1) continue;
            assertEquals(String.format(Locale.ROOT, "%.1f", v), Sizes.oneDecimal(v), "for " + v);
        }
        for (double v : new double[] {1, 1.05, 1.25, 1.95, 9.95, 99.95, 1023.95, 1023.94999, 7.99999999})
            assertEquals(String.format(Locale.ROOT, "%.1f", v), Sizes.oneDecimal(v), "for " + v);
    }

    @Test
    void humanSizes() {
        assertEquals("512B", Sizes.human(512));
        assertEquals("-512B", Sizes.human(-512));
        assertEquals("4.0KiB", Sizes.human(4096));
        assertEquals("80.8MiB", Sizes.human(84_725_965));
        assertEquals("1.0MiB", Sizes.human(1024 * 1024 - 20));
        assertEquals("-2.3GiB", Sizes.human(-2_486_630_852L));
        assertEquals("8.0EiB", Sizes.human(Long.MAX_VALUE));
        assertEquals("-9223372036854775808B", Sizes.human(Long.MIN_VALUE));
    }
}
