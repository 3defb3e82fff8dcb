/**
 * How an SPMD module is laid over its devices: the sharding of its entry parameters read from the
 * optimized HLO text beside the dump ({@link bufq.analysis.sharding.Shardings}), and the replication audit
 * built on it ({@code blame by sharding}: what is replicated or sharded fewer ways than the mesh
 * allows, and what sharding it would save, measured by the caller with {@code whatif}). It depends on
 * {@code model}, {@code liveness} and {@code table} only, so the query language's fields and the
 * analyses both read it.
 */
package bufq.analysis.sharding;
