package bufq.model;

import java.util.function.BinaryOperator;

/**
 * A string-keyed table built once: open addressing over two arrays, about 12 bytes an entry where a
 * HashMap takes 40. The model's per-name indexes use it so a loaded module stays small.
 * Not thread-safe while being filled; read-only (and safe to share) afterwards.
 */
final class NameIndex<V> {
    private final String[] keys;
    private final Object[] vals;
    private int size;

    NameIndex(int expected) {
        int cap = 16;
        while (cap < expected * 3L / 2 + 1) cap <<= 1;
        keys = new String[cap];
        vals = new Object[cap];
    }

    private int slot(String key) {
        int mask = keys.length - 1;
        // Multiplicative spreading: names that differ in trailing digits have hashes in sequence.
        int i = (key.hashCode() * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(keys.length));
        while (keys[i] != null && !keys[i].equals(key)) i = (i + 1) & mask;
        return i;
    }

    /** Puts {@code v}, or {@code merge(old, v)} when the key is there. */
    void merge(String key, V v, BinaryOperator<V> merge) {
        int i = slot(key);
        if (keys[i] == null) {
            if ((size + 1) * 4L > keys.length * 3L) throw new IllegalStateException("NameIndex sized too small");
            keys[i] = key;
            vals[i] = v;
            size++;
        } else {
            vals[i] = merge.apply(get(key), v);
        }
    }

    void putIfAbsent(String key, V v) {
        merge(key, v, (old, nu) -> old);
    }

    @SuppressWarnings("unchecked")
    V get(String key) {
        int i = slot(key);
        return keys[i] == null ? null : (V) vals[i];
    }

    int size() { return size; }
}
