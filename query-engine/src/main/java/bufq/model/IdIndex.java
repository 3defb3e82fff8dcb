package bufq.model;

import java.util.Arrays;

/**
 * A module's value ids ascending ({@code ids}) and the position in {@link HloModule#values()} of each
 * ({@code positions}): the index by id, built on first lookup.
 */
record IdIndex(long[] ids, int[] positions) {
    /** @param keys the values' ids in position order; equal ids keep that order */
    static IdIndex of(long[] keys) {
        int n = keys.length;
        long[] packedOrder = sortByKey(keys);
        long[] ids = new long[n];
        int[] positions = new int[n];
        for (int i = 0; i < n; i++) {
            positions[i] = (int) packedOrder[i];
            ids[i] = keys[positions[i]];
        }
        return new IdIndex(ids, positions);
    }

    /**
     * Whether two of {@code keys} are equal, without sorting them when they are what XLA prints
     * (small non-negative numbers: a bit each). No module seen has shared ids; this tells so in
     * one pass, and only a module that has them pays for the index that names them.
     */
    static boolean anyShared(long[] keys) {
        int n = keys.length;
        long max = -1;
        for (long k : keys) {
            if (k < 0) return true;   // cannot say without the index: let it look
            max = Math.max(max, k);
        }
        if (max >= 8L * n + 64) return true;
        long[] seen = new long[(int) (max >>> 6) + 1];
        for (long k : keys) {
            long bit = 1L << k;
            int word = (int) (k >>> 6);
            if ((seen[word] & bit) != 0) return true;
            seen[word] |= bit;
        }
        return false;
    }

    /** Positions 0..n-1 ordered by key (stable), without boxing. */
    private static long[] sortByKey(long[] keys) {
        int n = keys.length;
        boolean sorted = true;
        for (int i = 1; i < n && sorted; i++) sorted = keys[i - 1] <= keys[i];
        long[] out = new long[n];
        if (sorted) {
            for (int i = 0; i < n; i++) out[i] = i;
            return out;
        }
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        for (long k : keys) { lo = Math.min(lo, k); hi = Math.max(hi, k); }
        if (lo >= 0 && hi <= Integer.MAX_VALUE) {
            // Ids as XLA prints them: (id, position) packed in one long, a primitive sort, stable by position.
            for (int i = 0; i < n; i++) out[i] = keys[i] << 32 | i;
            Arrays.sort(out);
            for (int i = 0; i < n; i++) out[i] = (int) out[i];
            return out;
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Long.compare(keys[a], keys[b]));
        for (int i = 0; i < n; i++) out[i] = order[i];
        return out;
    }
}
