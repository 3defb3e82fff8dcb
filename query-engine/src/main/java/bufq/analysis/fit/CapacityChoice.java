package bufq.analysis.fit;

import bufq.units.Units;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * What the user said the programs may use, read once where it is said ({@code set capacity},
 * {@code --capacity}, a message's stated figure): none (the device's, if one is set), a size, the
 * machine's own memory ({@code host}), or no bound ({@code unlimited}).
 *
 * @param text as the user wrote it, for {@code set} to show
 */
public record CapacityChoice(Kind kind, long bytes, String text, String statedBy) {
    public enum Kind { NONE, BYTES, HOST, UNLIMITED }

    /** What the user said: {@code statedBy} is null. */
    public CapacityChoice(Kind kind, long bytes, String text) {
        this(kind, bytes, text, null);
    }

    public static final CapacityChoice NONE = new CapacityChoice(Kind.NONE, 0, "none");

    /**
     * Reads {@code none}, {@code host}, {@code unlimited} or a size with its unit ({@code 16GiB},
     * {@code 80GB}, {@code 16 GiB}: a bare number is refused, {@code help units}).
     *
     * @throws NumberFormatException saying what was expected
     */
    public static CapacityChoice of(String text) {
        String t = text.strip();
        switch (t.toLowerCase(Locale.ROOT)) {
            case "none" -> { return NONE; }
            case "host" -> { return new CapacityChoice(Kind.HOST, 0, "host"); }
            case "unlimited" -> { return new CapacityChoice(Kind.UNLIMITED, 0, "unlimited"); }
            default -> { }
        }
        long n = Units.parse(t, true);
        if (n <= 0) throw new NumberFormatException("takes a size above 0, host, unlimited or none, not '" + t + "'");
        return new CapacityChoice(Kind.BYTES, n, t);
    }

    /** A capacity of exactly {@code bytes}, as a message stated it. */
    public static CapacityChoice ofBytes(long bytes) {
        if (bytes <= 0) throw new IllegalArgumentException("a capacity is above 0 bytes");
        return new CapacityChoice(Kind.BYTES, bytes, bytes + "B");
    }

    /**
     * A capacity of exactly {@code bytes} that an out-of-memory message states; {@code statedBy} says
     * which and how it prints there, and is the capacity's source in {@code fit}.
     */
    public static CapacityChoice stated(long bytes, String statedBy) {
        if (bytes <= 0) throw new IllegalArgumentException("a capacity is above 0 bytes");
        return new CapacityChoice(Kind.BYTES, bytes, bytes + "B", statedBy);
    }

    /**
     * The capacity it names, said to come from {@code source} (or from the message that stated it);
     * null for {@link Kind#NONE}.
     */
    public Capacity capacity(String source) {
        return switch (kind) {
            case NONE -> null;
            case BYTES -> new Capacity(bytes, 0, statedBy != null ? statedBy : source);
            case HOST -> host(source);
            case UNLIMITED -> new Capacity(Long.MAX_VALUE, 0, source + ": no bound");
        };
    }

    /** This machine's physical memory, what an XLA:CPU run without a limit runs into. */
    public static Capacity host(String why) {
        long bytes = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
        return new Capacity(bytes, 0, "host: this machine's physical memory, " + Units.human(bytes) + " (" + why + ")");
    }

    @Override public String toString() { return text; }
}
