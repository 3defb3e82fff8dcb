package bufq.dump.text;

import java.util.ArrayList;
import java.util.List;

/**
 * String keys to {@code long} values, open addressing over three arrays: no entry objects and no
 * boxing, for the reader's per-value joins (a million live ranges by value name). Keys are the
 * interner's instances, so most compares are by identity. Not thread-safe.
 */
public final class NameTable {
    private String[] keys;
    private int[] hashes;   // compared before a key is touched: a probe past other keys costs no cache miss each
    private long[] vals;
    private int size;

  public   NameTable(int expected) {
        int cap = 16;
        while (cap < expected * 2L) cap <<= 1;
        keys = new String[cap];
        hashes = new int[cap];
        vals = new long[cap];
    }

    private static int slot(String[] keys, int[] hashes, String key, int h) {
        int mask = keys.length - 1;
        // Multiplicative spreading: names that differ in trailing digits have hashes in sequence.
        int i = (h * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(keys.length));
        for (String k; (k = keys[i]) != null; i = (i + 1) & mask) {
            if (k == key || (hashes[i] == h && k.equals(key))) return i;
        }
        return i;
    }

    /** Sets {@code key}'s value; returns false when the key was there already (its value is replaced). */
    public boolean put(String key, long v) {
        int h = key.hashCode();
        int i = slot(keys, hashes, key, h);
        vals[i] = v;
        if (keys[i] != null) return false;
        keys[i] = key;
        hashes[i] = h;
        if (++size * 2 > keys.length) grow();
        return true;
    }

    /** The value of {@code key}, or {@code missing}. */
    public long get(String key, long missing) {
        int i = slot(keys, hashes, key, key.hashCode());
        return keys[i] == null ? missing : vals[i];
    }

    int size() { return size; }

    List<String> keys() {
        List<String> out = new ArrayList<>(size);
        for (String k : keys) if (k != null) out.add(k);
        return out;
    }

    /** Calls {@code f} with every entry. */
    void forEach(Entry f) {
        for (int i = 0; i < keys.length; i++) if (keys[i] != null) f.accept(keys[i], vals[i]);
    }

    interface Entry { void accept(String key, long value); }

    private void grow() {
        String[] ok = keys;
        int[] oh = hashes;
        long[] ov = vals;
        keys = new String[ok.length * 2];
        hashes = new int[ok.length * 2];
        vals = new long[ok.length * 2];
        for (int j = 0; j < ok.length; j++) {
            if (ok[j] == null) continue;
            int i = slot(keys, hashes, ok[j], oh[j]);
            keys[i] = ok[j];
            hashes[i] = oh[j];
            vals[i] = ov[j];
        }
    }
}
