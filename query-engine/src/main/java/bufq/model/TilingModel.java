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
         * device-laid-out (tiled) elements takes whole 32-byte words, and an array without tiles
         * outside SMEM takes whole runs of {@value #UNTILED_ELEMENTS} elements.
         */
        @Override public long paddedBytes(HloValue v, HloModule m) {
            Shape s = v.shape();
            if (!"tpu".equals(m.info().backend())) return s.paddedBytes();
            if (s.isTuple() && s.tupleElements().stream().anyMatch(e -> !e.tiles().isEmpty())) {
                return (s.logicalBytes() + 31) / 32 * 32;
            }
            if (s.isArray() && s.tiles().isEmpty() && s.memorySpace() != SMEM) {
                long runs = (s.elementCount() + UNTILED_ELEMENTS - 1) / UNTILED_ELEMENTS;
                return Math.max(1, runs) * UNTILED_ELEMENTS * ((s.bitsPerElement() + 7) / 8);
            }
            return s.paddedBytes();
        }
    };

    /**
     * XLA:TPU's memory space {@code S(2)}, the scalar core's word-addressed SMEM: an untiled array
     * there is its logical size ({@code u32[]{:S(2)}} takes 4 bytes).
     */
    int SMEM = 2;

    /**
     * What an untiled TPU array takes outside SMEM, in elements: XLA:TPU sizes it in runs of 1024
     * (a sync flag {@code s32[2]{0:S(4)}} and {@code s32[]} take 4096 bytes, {@code bf16[]} 2048,
     * {@code pred[]} 1024, in HBM and in the spaces {@code S(4)} and {@code S(6)} alike: every such
     * value of the corpus's real v5e compiles and of the public TPU dumps).
     */
    int UNTILED_ELEMENTS = 1024;

    /** No padding: the logical size. */
    TilingModel NONE = new TilingModel() {
        @Override public String name() { return "none"; }
        @Override public long paddedBytes(Shape shape) { return shape.logicalBytes(); }
    };
}
