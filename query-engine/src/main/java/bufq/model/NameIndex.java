package bufq.model;

import bufq.util.HashSlots;

import java.util.Arrays;
import java.util.function.BinaryOperator;

/**
 * A string-keyed table built once, over {@link HashSlots}: each slot's int is the entry's number,
 * and the keys and values are kept densely by number (insertion order), so the table takes about
 * 8 bytes a slot and 8 an entry, where a HashMap entry takes 40. The model's per-name indexes use
 * it so a loaded module stays small. Not thread-safe while being filled; read-only (and safe to
 * share) afterwards.
 */
final class NameIndex<V> {
    private HashSlots slots;
    private String[] keys;
    private Object[] vals;

    NameIndex(int expected) {
        slots = HashSlots.forKeys(expected);
        keys = new String[Math.max(1, expected)];
        vals = new Object[keys.length];
    }

    /** The slot of {@code key}, or {@code ~} the free slot where it would go. */
    private int slot(String key, int h) {
        int i = slots.first(h);
        // Keys are mostly the reader's interned instances: most compares are by identity.
        for (String k; i >= 0 && (k = keys[slots.value(i)]) != key && !k.equals(key); ) i = slots.next(i, h);
        return i;
    }

    /** Puts {@code v}, or {@code merge(old, v)} when the key is there. */
    @SuppressWarnings("unchecked")
    void merge(String key, V v, BinaryOperator<V> merge) {
        int h = key.hashCode();
        int i = slot(key, h);
        if (i >= 0) {
            int e = slots.value(i);
            vals[e] = merge.apply((V) vals[e], v);
        } else {
            add(~i, key, h, v);
        }
    }

    void putIfAbsent(String key, V v) {
        int h = key.hashCode();
        int i = slot(key, h);
        if (i < 0) add(~i, key, h, v);
    }

    private void add(int free, String key, int h, V v) {
        int e = slots.size();
        if (e == keys.length) {
            keys = Arrays.copyOf(keys, e * 2);
            vals = Arrays.copyOf(vals, e * 2);
        }
        keys[e] = key;
        vals[e] = v;
        if (slots.claim(free, h, e)) slots = slots.grow(null);   // entries stay where they are
    }

    @SuppressWarnings("unchecked")
    V get(String key) {
        int i = slot(key, key.hashCode());
        return i < 0 ? null : (V) vals[slots.value(i)];
    }

    int size() { return slots.size(); }
}
