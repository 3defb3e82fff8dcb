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
     * @throws Failure when a model written by a user fails or gives no size for {@code shape}
     */
    long paddedBytes(Shape shape);

    /** A user's tiling model failed; the message names the model and the shape and says why. */
    final class Failure extends RuntimeException {
        public Failure(String message) {
            super(message, null, false, false);
        }
    }

    /** XLA's TPU rule: first tile only, minor dims padded to tile multiples (see {@link Shape#paddedBytes()}). */
    TilingModel TPU = new TilingModel() {
        @Override public String name() { return "tpu"; }
        @Override public long paddedBytes(Shape shape) { return shape.paddedBytes(); }
    };

    /** No padding: the logical size. */
    TilingModel NONE = new TilingModel() {
        @Override public String name() { return "none"; }
        @Override public long paddedBytes(Shape shape) { return shape.logicalBytes(); }
    };
}
