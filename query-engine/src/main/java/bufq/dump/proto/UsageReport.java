package bufq.dump.proto;

import java.util.SortedMap;

/**
 * A memory usage report proto read beside its module: the file's name and the totals of each
 * memory space by colour ({@link ProtoReader#reportTotals}).
 */
record UsageReport(String file, SortedMap<Integer, Long> colorTotals) {}
