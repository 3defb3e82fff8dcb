package bufq.util;

/**
 * The slots of an open-addressing hash table, written once for every table bufq keeps: where a key
 * is looked for (linear probing from a slot spread from its hash), how full a table may get (half),
 * and how it grows (doubling). A slot holds its key's 32-bit hash and an int of the owner's (a
 * symbol, a value, an offset, an entry number) in one long, so a probe that finds the hash has the
 * int in the same cache line; 0 marks a free slot. The owner keeps its keys (and any other values)
 * in arrays of its own, indexed by slot, and decides when two keys are equal:
 * <pre>
 *   int i = slots.first(h);
 *   while (i &gt;= 0 &amp;&amp; !key.equals(keys[i])) i = slots.next(i, h);
 *   if (i &gt;= 0) return slots.value(i);                 // found
 *   keys[~i] = key;                                    // not found: ~i is where it goes
 *   if (slots.claim(~i, h, v)) grow();                 // half full: double, moving the owner's keys along
 * </pre>
 * The hashes are compared before the owner's key is touched, so a probe past other keys costs no
 * cache miss in the keys. Any int is a hash (0 is stored as another value). Not thread-safe; an
 * owner that lets readers in without a lock (the interner) publishes each table it grows whole, and
 * claims a slot (hash and int) before it writes the slot's key.
 */
public final class HashSlots {
    private final long[] slots;   // hash << 32 | value; 0 when free
    private final int mask;
    private final int shift;
    private int size;

    private HashSlots(int capacity) {
        slots = new long[capacity];
        mask = capacity - 1;
        shift = 32 - Integer.numberOfTrailingZeros(capacity);
    }

    /** Slots for {@code expected} keys before the first growth (at least 16). */
    public static HashSlots forKeys(long expected) {
        int cap = 16;
        while (cap < expected * 2 && cap < 1 << 30) cap <<= 1;
        return new HashSlots(cap);
    }

    /** How many slots: the length the owner's slot-indexed arrays must have. */
    public int capacity() { return slots.length; }

    /** How many keys hold a slot. */
    public int size() { return size; }

    /** 0 marks a free slot, so a key whose hash is 0 is stored with another one. */
    private static int stored(int h) { return h == 0 ? 0x9E3779B9 : h; }

    /**
     * The first slot on {@code h}'s probe path whose key has the hash {@code h}, or, when none does
     * before a free slot, {@code ~} that free slot (negative).
     */
    public int first(int h) {
        h = stored(h);
        long[] s = slots;
        // Multiplicative spreading into the top bits: names that differ in trailing digits, and ids
        // in sequence, have hashes in sequence.
        int i = (h * 0x9E3779B9) >>> shift;
        for (long x; (x = s[i]) != 0; i = (i + 1) & mask) if ((int) (x >>> 32) == h) return i;
        return ~i;
    }

    /** As {@link #first}, from the slot after {@code i} (a slot {@link #first} or this gave). */
    public int next(int i, int h) {
        h = stored(h);
        long[] s = slots;
        for (i = (i + 1) & mask; ; i = (i + 1) & mask) {
            long x = s[i];
            if (x == 0) return ~i;
            if ((int) (x >>> 32) == h) return i;
        }
    }

    /** The owner's int in slot {@code i}. */
    public int value(int i) { return (int) slots[i]; }

    /** Replaces the owner's int in the used slot {@code i}. */
    public void setValue(int i, int v) {
        slots[i] = slots[i] & 0xFFFFFFFF00000000L | (v & 0xFFFFFFFFL);
    }

    /**
     * Gives the free slot {@code free} (from {@code ~first} or {@code ~next}) to a key of hash
     * {@code h}, with the owner's int {@code v}; true when the table is now half full and the owner
     * should {@link #grow}.
     */
    public boolean claim(int free, int h, int v) {
        slots[free] = (long) stored(h) << 32 | (v & 0xFFFFFFFFL);
        return ++size * 2 > slots.length;
    }

    /** Told where each key moves when a table grows. */
    @FunctionalInterface
    public interface Move {
        void move(int from, int to);
    }

    /**
     * A table of twice the slots holding the same hashes and ints: {@code move} (null when the owner
     * keeps nothing by slot) is called with each key's slot here and its slot there, for the owner to
     * copy its own arrays, made {@code capacity()} of the new table long.
     */
    public HashSlots grow(Move move) {
        HashSlots t = new HashSlots(slots.length * 2);
        long[] to = t.slots;
        for (int j = 0; j < slots.length; j++) {
            long x = slots[j];
            if (x == 0) continue;
            int i = ((int) (x >>> 32) * 0x9E3779B9) >>> t.shift;
            while (to[i] != 0) i = (i + 1) & t.mask;
            to[i] = x;
            if (move != null) move.move(j, i);
        }
        t.size = size;
        return t;
    }
}
