package bufq.dump;

/** The smallest complete dump the reader tests start from, shared by the bad-input and hostile-input tests. */
public final class TinyDump {
    private TinyDump() {}

    /** A single-file dump's name. */
    public static final String NAME = "module_0001.jit_f.cpu_after_optimizations-buffer-assignment.txt";

    /** Its allocation section: two allocations of one value each, and {@code Total bytes used}. */
    public static final String ASSIGNMENT = """
            BufferAssignment:
            allocation 0: size 32, parameter 0, shape |f32[8]| at ShapeIndex {}:
             value: <0 x.1 @0> (size=32,offset=0): f32[8]{0}
            allocation 1: size 32, output shape is |f32[8]|, maybe-live-out:
             value: <1 neg.2 @0> (size=32,offset=0): f32[8]{0}

            Total bytes used: 64 (64B)
            """;

    /** The whole dump: the allocation section, Used values and, after two blank lines as XLA writes them, the live ranges with a peak. */
    public static final String COMPLETE = ASSIGNMENT + """

            Used values:
            <0 x.1 @0>
             positions:
              x.1
             uses:
              neg.2, operand 0
             from instruction: %x.1 = f32[8]{0} parameter(0)
            <1 neg.2 @0>
             positions:
              neg.2
             uses:
             from instruction: %neg.2 = f32[8]{0} negate(%x.1)


            HloLiveRange (max 2):
              InstructionSequence:
                0:x.1
                1:neg.2
              BufferLiveRange:
                x.1{}:0-2
                neg.2{}:1-2
              Live ranges at 1 (peak):
                x.1{}: 32 bytes (cumulative: 32 bytes)
                neg.2{}: 32 bytes (cumulative: 64 bytes)
            """;
}
