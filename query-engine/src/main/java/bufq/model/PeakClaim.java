package bufq.model;

import java.util.List;

/**
 * The dump's own {@code Live ranges at P (peak):} section.
 *
 * @param cumulative true for the late-2025 style with {@code (cumulative: N bytes)} figures
 */
public record PeakClaim(int time, List<Entry> entries, boolean cumulative) {
    public PeakClaim {
        entries = List.copyOf(entries);
    }

    /** One listed value: key as printed ({@code name{idx}} new style, bare name old style). */
    public record Entry(String key, long bytes, long cumulativeBytes) {}

    /** The last cumulative figure (new style), or the sum of listed bytes (old style). */
    public long claimedBytes() {
        if (entries.isEmpty()) return 0;
        if (cumulative) return entries.get(entries.size() - 1).cumulativeBytes();
        long s = 0;
        for (Entry e : entries) s += e.bytes();
        return s;
    }
}
