package bufq.analysis.fit;

/**
 * How much memory the programs may use: the device's (or process's) {@code bytes}, less what the
 * runtime keeps for itself ({@code reservedBytes}), and where the figures come from.
 *
 * @param source    said with every result: "set capacity", "device v5e (...)", a message's figure
 * @param bound     the most there could have been (a message's figures bound an unknown capacity): a
 *                  set over it fails for sure, one under it may still fail
 */
public record Capacity(long bytes, long reservedBytes, String source, boolean bound) {
    public Capacity(long bytes, long reservedBytes, String source) {
        this(bytes, reservedBytes, source, false);
    }

    public Capacity {
        if (bytes <= 0) throw new IllegalArgumentException("capacity must be positive");
        if (reservedBytes < 0 || reservedBytes >= bytes)
            throw new IllegalArgumentException("reserved must be at least 0 and below the capacity");
    }

    /** What a program is offered: the capacity less the reservation. */
    public long offeredBytes() { return bytes - reservedBytes; }

    public Capacity withReserved(long reserved, String why) {
        return new Capacity(bytes, reserved, source + "; " + why, bound);
    }
}
