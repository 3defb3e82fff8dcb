/**
 * Will it fit: what each program asks a device for (JAX's {@code memory_analysis()} figures, read
 * from the buffer assignment), the device's capacity, and the programs held together as they run
 * in one process. Depends on {@code model} and {@code table} only.
 */
package bufq.analysis.fit;
