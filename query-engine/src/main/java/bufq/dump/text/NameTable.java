package bufq.dump.text;

import bufq.util.HashSlots;

/**
 * String keys to ints over {@link HashSlots} (the int is the slot's own) and one array of keys: no
 * entry objects and no boxing, for the reader's per-value joins (a million instructions by name).
 * Keys are the interner's instances, so most compares are by identity. Not thread-safe.
 */
public final class NameTable {
    private HashSlots slots;
    private String[] keys;

    public NameTable(int expected) {
        slots = HashSlots.forKeys(expected);
        keys = new String[slots.capacity()];
    }

    /** The slot of {@code key}, or {@code ~} the free slot where it would go. */
    private int slot(String key, int h) {
        int i = slots.first(h);
        for (String k; i >= 0 && (k = keys[i]) != key && !k.equals(key); ) i = slots.next(i, h);
        return i;
    }

    /** Sets {@code key}'s value; returns false when the key was there already (its value is replaced). */
    public boolean put(String key, int v) {
        int h = key.hashCode();
        int i = slot(key, h);
        if (i >= 0) {
            slots.setValue(i, v);
            return false;
        }
        keys[~i] = key;
        if (slots.claim(~i, h, v)) {
            String[] old = keys, bigger = new String[old.length * 2];
            slots = slots.grow((from, to) -> bigger[to] = old[from]);
            keys = bigger;
        }
        return true;
    }

    /** The value of {@code key}, or {@code missing}. */
    public int get(String key, int missing) {
        int i = slot(key, key.hashCode());
        return i < 0 ? missing : slots.value(i);
    }

    int size() { return slots.size(); }
}
