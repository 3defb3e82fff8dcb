package bufq.table;

import bufq.units.Units;

/**
 * Byte counts for people: {@code 512B}, {@code 4.0KiB}, {@code 80.8MiB}, printed by {@link Units#human},
 * the one size formatter.
 */
public final class Sizes {
    private Sizes() {}

    /** {@link Units#human}. */
    public static String human(long bytes) {
        return Units.human(bytes);
    }
}
