package bufq.model;

/**
 * One event of XLA's heap-simulator trace ({@code HeapSimulatorTrace.Event}), in the order XLA
 * simulated it: the x-axis XProf's memory viewer plots. Only proto dumps carry the trace.
 *
 * @param seq         position in the module's events, from 0
 * @param kind        {@code ALLOC}, {@code FREE} or {@code SHARE_WITH}
 * @param value       the value (logical buffer) id
 * @param instruction the instruction the simulator was processing
 * @param computation that instruction's computation
 * @param bytes       bytes the event takes (+) or gives back (-): 0 for a share of bytes another
 *                    value holds, and for the free of a buffer others still share
 * @param heapBytes   the simulated heap's bytes after the event (per trace)
 * @param allocation  the allocation holding the value, or -1 when the assignment does not place it
 * @param shareWith   the canonical value a SHARE_WITH reuses, else -1
 */
public record HeapEvent(int seq, String kind, long value, String instruction, String computation, long bytes,
                        long heapBytes, int allocation, long shareWith) {}
