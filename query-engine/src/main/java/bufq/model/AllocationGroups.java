package bufq.model;

import java.util.Arrays;

/**
 * Values grouped by allocation: the distinct allocation numbers ascending ({@code keys}), and
 * group {@code g}'s value positions, in position order, at {@code members[start[g], start[g + 1])}.
 * A module keeps them ({@link HloModule#allocationGroups()}); the liveness sweep over edited inputs sorts its own.
 */
public record AllocationGroups(int[] keys, int[] start, int[] members) {
    public static AllocationGroups of(int[] allocation) {
        int n = allocation.length;
        boolean sorted = true;
        for (int i = 1; i < n && sorted; i++) sorted = allocation[i - 1] <= allocation[i];
        if (sorted) return ofSorted(allocation);
        long[] byAlloc = new long[n];
        for (int i = 0; i < n; i++) byAlloc[i] = ((long) allocation[i] << 32) | i;
        Arrays.sort(byAlloc);
        int groups = 0;
        for (int i = 0; i < n; i++) if (i == 0 || (int) (byAlloc[i] >> 32) != (int) (byAlloc[i - 1] >> 32)) groups++;
        int[] keys = new int[groups], start = new int[groups + 1], members = new int[n];
        for (int i = 0, g = -1; i < n; i++) {
            int a = (int) (byAlloc[i] >> 32);
            if (g < 0 || keys[g] != a) { keys[++g] = a; start[g] = i; }
            members[i] = (int) byAlloc[i];
        }
        start[groups] = n;
        return new AllocationGroups(keys, start, members);
    }

    /**
     * {@link #of} for allocation numbers in ascending order, as a dump lists its values (each
     * allocation's after its header, the allocations by number): runs, without the sort.
     */
    private static AllocationGroups ofSorted(int[] allocation) {
        int n = allocation.length;
        int groups = 0;
        for (int i = 0; i < n; i++) if (i == 0 || allocation[i] != allocation[i - 1]) groups++;
        int[] keys = new int[groups], start = new int[groups + 1], members = new int[n];
        for (int i = 0, g = -1; i < n; i++) {
            if (g < 0 || keys[g] != allocation[i]) { keys[++g] = allocation[i]; start[g] = i; }
            members[i] = i;
        }
        start[groups] = n;
        return new AllocationGroups(keys, start, members);
    }
}
