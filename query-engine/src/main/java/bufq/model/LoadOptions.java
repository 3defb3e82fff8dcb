package bufq.model;

/**
 * What a load reads beyond what every module needs.
 *
 * @param readUsedValues read the {@code Used values} section now, in the load's own parallel pass,
 *                       rather than on first use (see {@link UsedValues.Handle})
 */
public record LoadOptions(boolean readUsedValues) {
    /** Read the Used values section on first use: what {@code summary} and most loads want. */
    public static final LoadOptions LAZY = new LoadOptions(false);
    /** Read every part now. */
    public static final LoadOptions WHOLE = new LoadOptions(true);
}
