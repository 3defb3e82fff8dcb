package bufq.format;

/**
 * Rendering options.
 *
 * @param rawSizes print byte counts as plain integers instead of KiB/MiB in the table format
 * @param color    ANSI colour allowed (only the table format uses it)
 */
public record FormatOptions(boolean rawSizes, boolean color) {
    public static final FormatOptions DEFAULT = new FormatOptions(false, false);
}
