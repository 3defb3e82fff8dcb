package bufq.analysis.oom;

/** The kinds of out-of-memory message bufq reads; the word is what tables print. */
public enum Family {
    /** {@code RESOURCE_EXHAUSTED: Out of memory allocating N bytes.} (XLA:CPU). */
    CPU("xla-cpu"),
    /** {@code Out of memory while trying to allocate N bytes.} with {@code BufferAssignment OOM Debugging.} (GPU). */
    GPU_ASSIGNMENT("gpu-buffer-assignment"),
    /** {@code Failed to allocate request for 321.75MiB (337385120B) on device ordinal 0} (stream executor). */
    STREAM_EXECUTOR("stream-executor"),
    /** {@code Allocator (GPU_0_bfc) ran out of memory trying to allocate ...} with chunks and {@code Stats:}. */
    BFC("bfc-allocator"),
    /** {@code Ran out of memory in memory space hbm. Used X of Y hbm. ...} (TPU compile time, E1000). */
    TPU_COMPILE("tpu-compile"),
    /** {@code Allocation (size=N) would exceed memory (size=C) :: #allocationK [...]} (TPU). */
    TPU_ALLOCATION("tpu-allocation"),
    /** {@code Error allocating device buffer: Attempting to allocate X. ... There are Y free.} (TPU run time, E0100). */
    TPU_BUFFER("tpu-runtime-buffer"),
    /** {@code Error loading program 'NAME': Attempting to reserve X ...} (TPU run time, E0101). */
    TPU_PROGRAM_LOAD("tpu-program-load"),
    /** {@code TPU TensorCore Hbm usage: X, SparseCore Hbm usage Y, exceeding available bytes: Z}. */
    SPARSECORE("sparsecore");

    private final String word;

    Family(String word) { this.word = word; }

    public String word() { return word; }

    @Override public String toString() { return word; }
}
