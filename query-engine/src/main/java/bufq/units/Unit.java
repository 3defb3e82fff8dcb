package bufq.units;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The one table of byte units: every flag, setting, query literal, dump reader and message reader
 * reads sizes through it, and {@code help units} prints it.
 *
 * <p>Decimal units are powers of 1000 as datasheets write them ({@code 80GB} is 80,000,000,000 B);
 * the IEC units are powers of 1024; XLA's and the TPU runtime's bare {@code K M G T P E} (as in
 * {@code 15.48G}) are powers of 1024 too, as XLA prints them. Case does not matter ({@code 16gib},
 * {@code 16GIB}), so that a unit reads as the user typed it.
 */
public enum Unit {
    B("B", 1, 0, "bytes"),
    KB("KB", 1000, 1, "kilobytes, 1000 B"),
    MB("MB", 1000, 2, "megabytes, 1000^2 B"),
    GB("GB", 1000, 3, "gigabytes, 1000^3 B (a datasheet's)"),
    TB("TB", 1000, 4, "terabytes, 1000^4 B"),
    PB("PB", 1000, 5, "petabytes, 1000^5 B"),
    KIB("KiB", 1024, 1, "kibibytes, 1024 B"),
    MIB("MiB", 1024, 2, "mebibytes, 1024^2 B"),
    GIB("GiB", 1024, 3, "gibibytes, 1024^3 B"),
    TIB("TiB", 1024, 4, "tebibytes, 1024^4 B"),
    PIB("PiB", 1024, 5, "pebibytes, 1024^5 B"),
    EIB("EiB", 1024, 6, "exbibytes, 1024^6 B"),
    K("K", 1024, 1, "as XLA prints KiB"),
    M("M", 1024, 2, "as XLA prints MiB (8.00M)"),
    G("G", 1024, 3, "as XLA prints GiB (15.48G)"),
    T("T", 1024, 4, "as XLA prints TiB"),
    P("P", 1024, 5, "as XLA prints PiB"),
    E("E", 1024, 6, "as XLA prints EiB (3.47E)");

    private final String symbol;
    private final int base;
    private final int power;
    private final String meaning;

    Unit(String symbol, int base, int power, String meaning) {
        this.symbol = symbol;
        this.base = base;
        this.power = power;
        this.meaning = meaning;
    }

    /** The unit as printed: {@code KiB}, {@code GB}, {@code G}. */
    public String symbol() { return symbol; }

    /** 1000 or 1024 (1 for {@link #B}). */
    public int base() { return power == 0 ? 1 : base; }

    /** The exponent: bytes per unit are {@code base^power}. */
    public int power() { return power; }

    /** What it means, for {@code help units}. */
    public String meaning() { return meaning; }

    /** Whether the unit is a power of 1024. */
    public boolean binary() { return base == 1024 && power > 0; }

    /** Bytes per unit: exact for every unit (1024^6 is below 2^63). */
    public long bytes() {
        long f = 1;
        for (int i = 0; i < power; i++) f *= base;
        return f;
    }

    /**
     * The unit a word names, any case, with {@code byte}/{@code bytes} for {@link #B}; null when the
     * word is no unit.
     */
    public static Unit of(String word) {
        String w = word.strip();
        if (w.equalsIgnoreCase("byte") || w.equalsIgnoreCase("bytes")) return B;
        return BY_SYMBOL.get(w.toUpperCase(Locale.ROOT));
    }

    /**
     * The units by their symbol upper-cased: {@link #of} runs once a size of a report's allocation
     * line and of an out-of-memory log's figure, where a scan of {@code values()} (a fresh array and
     * a case conversion a unit) is most of the lookup.
     */
    private static final Map<String, Unit> BY_SYMBOL = bySymbol();

    private static Map<String, Unit> bySymbol() {
        Map<String, Unit> m = new HashMap<>();
        for (Unit unit : values()) m.putIfAbsent(unit.symbol.toUpperCase(Locale.ROOT), unit);
        return Map.copyOf(m);
    }
}
