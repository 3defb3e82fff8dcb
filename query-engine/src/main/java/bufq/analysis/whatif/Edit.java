package bufq.analysis.whatif;

/**
 * One change a what-if makes to a copy of a module's live ranges or sizes. Selections are the
 * query language's {@code where} conditions on values, kept as text with their place in the
 * statement so errors point into it. Immutable.
 */
public sealed interface Edit {
    /** The edit as the user wrote it (one {@code ;}-separated part). */
    String text();

    /** The condition selecting the values it changes; null for {@code tiling} and {@code donate NAME}. */
    Where where();

    /** A {@code where} condition on values and where it starts in the whole statement. */
    record Where(String condition, int offset) {}

    /** {@code drop where EXPR}: the values are not materialised at all. */
    record Drop(String text, Where where) implements Edit {}

    /**
     * {@code end where EXPR at last_use | STEP | INSTRUCTION}: ranges end earlier (never later);
     * {@code step} is -1 with {@code instruction} null for {@code last_use}.
     */
    record End(String text, Where where, long step, String instruction, int targetOffset) implements Edit {
        public boolean atLastUse() { return step < 0 && instruction == null; }
    }

    /**
     * {@code donate NAME} or {@code donate where EXPR}: parameters end at their last use;
     * {@code parameterOffset} is where NAME starts in the statement (-1 without one).
     */
    record Donate(String text, Where where, String parameter, int parameterOffset) implements Edit {}

    /** {@code scale where EXPR by F}: sizes times {@code factor} (0.5 for f32 to bf16). */
    record Scale(String text, Where where, double factor) implements Edit {}

    /** {@code size where EXPR = N}: sizes set to {@code bytes}. */
    record Resize(String text, Where where, long bytes) implements Edit {}

    /**
     * {@code remat where EXPR}: each value is freed after its last use before the peak and made
     * again for its first use after it (the idle stretch around the peak disappears).
     */
    record Remat(String text, Where where) implements Edit {}

    /** {@code tiling NAME}: every value sized by another tiling model; {@code offset} is where the name starts in the statement. */
    record Tiling(String text, String name, int offset) implements Edit {
        @Override public Where where() { return null; }
    }
}
