/**
 * Small data structures any layer may use, knowing nothing of dumps or queries: the open-addressing
 * core of every hash table bufq keeps ({@link bufq.util.HashSlots}) and the long-to-int map the
 * readers join ids with ({@link bufq.util.IdTable}), and a list of longs held unboxed
 * ({@link bufq.util.LongList}).
 */
package bufq.util;
