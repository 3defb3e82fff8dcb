package bufq.model;

/**
 * Turns a shape into its physical (padded) size. The built-in {@link #TPU} rule is FORMAT.md's;
 * scripts may register others, and {@code set tiling NAME} picks the one queries and checks use.
 */
public interface TilingModel {
    String name();

    /**
     * Physical bytes of {@code shape}; non-array shapes may return their logical size.
     *
     * @throws TilingFailure when a model written by a user fails or gives no size for {@code shape}
     */
    long paddedBytes(Shape shape);

    /**
     * Physical bytes of value {@code v} of module {@code m}: by default its shape's
     * {@link #paddedBytes(Shape)}; a rule may also read where the value is held.
     */
    default long paddedBytes(HloValue v, HloModule m) {
        return paddedBytes(v.shape());
    }

    /** A user's tiling model failed; the message names the model and the shape and says why. */
    final class TilingFailure extends RuntimeException {
        public TilingFailure(String message) {
            super(message, null, false, false);
        }
    }

    /** XLA's TPU rule: first tile only, minor dims padded to tile multiples (see {@link Shape#paddedBytes()}). */
    TilingModel TPU = new TilingModel() {
        @Override public String name() { return "tpu"; }
        @Override public long paddedBytes(Shape shape) { return shape.paddedBytes(); }

        /**
         * On TPU dumps also what the shape alone does not say (FORMAT.md): a tuple table of
         * device-laid-out (tiled) elements takes whole 32-byte words, and a layout-less scalar in a
         * thread-local allocation takes 4 KiB.
         */
        @Override public long paddedBytes(HloValue v, HloModule m) {
            Shape s = v.shape();
            if (!"tpu".equals(m.info().backend())) return s.paddedBytes();
            if (s.isTuple() && s.tupleElements().stream().anyMatch(e -> !e.tiles().isEmpty())) {
                return (s.logicalBytes() + 31) / 32 * 32;
            }
            BufferAllocation a = m.allocation(v.allocation());
            if (a != null && a.threadLocal() && s.isArray() && s.rank() == 0 && !s.hasLayout()) return 4096;
            return s.paddedBytes();
        }
    };

    /** No padding: the logical size. */
    TilingModel NONE = new TilingModel() {
        @Override public String name() { return "none"; }
        @Override public long paddedBytes(Shape shape) { return shape.logicalBytes(); }
    };
}
