package bufq.dump.text;

import bufq.model.Shape;

import bufq.util.HashSlots;

import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * One module's shared strings and shapes: equal names and shape texts become one instance, so the
 * loaded model stays smaller than the dump text. Each parallel parser takes its own {@link #local(int)}
 * view; all views of one module share one table.
 *
 * <p>Names are looked up by a range of the region's text, so a name seen before (most are: a value's
 * name recurs in its positions, its users' use lists, the sequence and the live ranges) costs a hash
 * and a compare, not a substring. A view first tries a small cache of recent names (names recur
 * within a few lines), then the shared table, which is split into stripes, each an open-addressing
 * table behind its own lock. One ConcurrentHashMap spent a third of the load in {@code putVal} and
 * its shared counter.
 *
 * <p>A name in a region whose bytes are all ASCII (most are: names, shapes and numbers) is hashed
 * from those bytes, eight at a time, instead of a char at a time; text and bytes hash alike, so a
 * name is found whichever way it was added. Keys keep no copy of their bytes to compare with (that
 * would vectorize the compare): for a million-value module the copies made the first load 8.5 s
 * instead of 6.7 s, with 390 MB more RSS.
 */
public final class Interner {
    private static final int STRIPES = 64;   // power of two
    private static final int RECENT_BITS = 12;   // the most a view caches: 4096 names

    private final Stripe[] stripes;
    // Numbers the names in the order they are first added, for all views of one module: the parts
    // keep a name's symbol beside it, and a join by symbol is an array index, not a lookup.
    private final AtomicInteger symbols;
    private final ShapeParser shapes;
    private final ConcurrentHashMap<String, OpMetadata> metadata;
    // This view's cache of recent names, direct-mapped by hash; null in the root.
    private final String[] recent;
    private final int[] recentHashes;
    private final int[] recentSymbols;
    // The name the last symbol() call found, and the holder a stripe leaves it in (a view is one thread's).
    private String lastName;
    private final String[] found = new String[1];
    private final int recentShift;
    // The text this view parses, when it is all ASCII: its bytes, and where the text starts in them.
    private String region;
    private byte[] regionBytes;
    private int regionOffset;

    /** @param expectedNames presizes the table (growing a big one is costly) */
    public Interner(int expectedNames) {
        stripes = new Stripe[STRIPES];
        symbols = new AtomicInteger();
        for (int i = 0; i < STRIPES; i++) stripes[i] = new Stripe(expectedNames / STRIPES, symbols);
        shapes = new ShapeParser(new ConcurrentHashMap<>());
        metadata = new ConcurrentHashMap<>();
        recent = null;
        recentHashes = null;
        recentSymbols = null;
        recentShift = 32;
    }

    private Interner(Interner root, int bits) {
        stripes = root.stripes;
        symbols = root.symbols;
        shapes = root.shapes;
        metadata = root.metadata;
        recent = new String[1 << bits];
        recentHashes = new int[1 << bits];
        recentSymbols = new int[1 << bits];
        recentShift = 32 - bits;
    }

    /**
     * A view for one thread reading {@code chars} characters: same table, its own cache of recent
     * names, sized to the text (a directory of thousands of small modules would otherwise allocate
     * a full-size cache per file).
     */
    public Interner local(int chars) {
        int bits = 32 - Integer.numberOfLeadingZeros(Math.max(1, chars / 256));
        return new Interner(this, Math.max(4, Math.min(RECENT_BITS, bits)));
    }

    /**
     * Tells this view that {@code text} is {@code bytes[offset, offset + text.length())}, all ASCII:
     * names in it are then hashed from the bytes.
     */
    public void asciiRegion(String text, byte[] bytes, int offset) {
        region = text;
        regionBytes = bytes;
        regionOffset = offset;
    }

    /** The bytes of {@code text} when it is the ASCII region this view was told of, else null. */
    byte[] bytesOf(String text) {
        return text == region ? regionBytes : null;
    }

    /** Where the region's text starts in {@link #bytesOf its bytes}. */
    int bytesOffset() { return regionOffset; }

    /** Drops the region {@link #asciiRegion} named: its names are read; later ones hash from text. */
    public void forgetRegion() {
        region = null;
        regionBytes = null;
    }

    String name(String s) {
        return name(s, 0, s.length());
    }

    /** The shared instance equal to {@code text[from, to)}. */
    String name(String text, int from, int to) {
        if (recent != null) {
            symbol(text, from, to);
            return lastName;
        }
        // The root may be called from several threads: its own holder each call.
        String[] holder = new String[1];
        symbol(text, from, to, holder);
        return holder[0];
    }

    /**
     * The symbol of {@code text[from, to)}: a number from 0 up, one per distinct name of the module,
     * in the order the names were first added; {@link #lastName()} is then the shared instance.
     */
    int symbol(String text, int from, int to) {
        int h = text == region ? hash(regionBytes, regionOffset + from, to - from) : hash(text, from, to);
        // Multiplicative spreading of the hash's low bits into the slot's high ones.
        int mix = h * 0x9E3779B9;
        int len = to - from;
        Stripe stripe = stripes[mix & (STRIPES - 1)];
        if (recent != null) {
            int slot = mix >>> recentShift;
            String k = recent[slot];
            if (k != null && recentHashes[slot] == h && k.length() == len && k.regionMatches(0, text, from, len)) {
                lastName = k;
                return recentSymbols[slot];
            }
            int symbol = stripe.intern(text, from, to, h, found);
            recent[slot] = lastName = found[0];
            recentHashes[slot] = h;
            recentSymbols[slot] = symbol;
            return symbol;
        }
        String[] holder = new String[1];
        int symbol = stripe.intern(text, from, to, h, holder);
        lastName = holder[0];
        return symbol;
    }

    /** The symbol of {@code text[from, to)}, its shared instance left in {@code holder[0]}: for the root, which threads share. */
    private int symbol(String text, int from, int to, String[] holder) {
        int h = text == region ? hash(regionBytes, regionOffset + from, to - from) : hash(text, from, to);
        return stripes[(h * 0x9E3779B9) & (STRIPES - 1)].intern(text, from, to, h, holder);
    }

    /** The name the last {@link #symbol} call of this view found. */
    String lastName() { return lastName; }

    /** How many symbols the module's names have taken so far (an upper bound on any symbol, plus one). */
    int symbolCount() { return symbols.get(); }

    /**
     * The hash of a name: its characters taken eight at a time as the bytes of a long (the low byte
     * of each), so an ASCII name hashes the same from its text and from its bytes.
     */
    static int hash(String s, int from, int to) {
        long h = (to - from) * 0x9E3779B97F4A7C15L;
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long w = 0;
            for (int k = 7; k >= 0; k--) w = (w << 8) | (s.charAt(i + k) & 0xFF);
            h = (h ^ w) * 0xC2B2AE3D27D4EB4FL;
        }
        long w = 0;
        for (int k = to - 1; k >= i; k--) w = (w << 8) | (s.charAt(k) & 0xFF);
        return finish(h ^ w);
    }

    static int hash(byte[] b, int off, int len) {
        long h = len * 0x9E3779B97F4A7C15L;
        int i = off, to = off + len;
        for (; i + 8 <= to; i += 8) h = (h ^ (long) WordScan.LONGS.get(b, i)) * 0xC2B2AE3D27D4EB4FL;
        long w = 0;
        for (int k = to - 1; k >= i; k--) w = (w << 8) | (b[k] & 0xFF);
        return finish(h ^ w);
    }

    /** Multiply and xor-shift twice, as MurmurHash3's 64-bit finalizer does, folded to 32 bits. */
    private static int finish(long h) {
        h *= 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int) h;
    }

    /** @throws ShapeSyntaxException on odd text */
    Shape shape(String text) {
        return shapes.shape(text);
    }

    /** The shape printed at {@code text[from, to)}; its text is looked up without a copy when seen before. */
    Shape shape(String text, int from, int to) {
        return shapes.shape(name(text, from, to));
    }

    /**
     * The fields of a (shared) {@code metadata={...}} text: {@code read} reads them once per distinct
     * text of the module, and every view shares what it read.
     */
    OpMetadata metadata(String text, Function<String, OpMetadata> read) {
        OpMetadata m = metadata.get(text);
        if (m == null) {
            m = read.apply(text);
            OpMetadata prev = metadata.putIfAbsent(text, m);
            if (prev != null) m = prev;
        }
        return m;
    }

    /**
     * One stripe of the table, over {@link HashSlots} (a slot's int: the name's symbol, read with its
     * hash). Reads go without the lock: a racing reader may miss an entry being added (then it takes
     * the lock and looks again), and never returns a wrong string, because it only returns a key it
     * has compared (Strings are safely published through their final fields).
     */
    private static final class Stripe {
        /** The stripe's slots and keys: replaced whole when it grows, so a reader sees one table. */
        private record Table(HashSlots slots, String[] keys) {}

        private volatile Table table;
        private final AtomicInteger next;

        Stripe(int expected, AtomicInteger next) {
            HashSlots slots = HashSlots.forKeys(expected);
            table = new Table(slots, new String[slots.capacity()]);
            this.next = next;
        }

        /** The name's symbol; its shared instance is left in {@code found[0]}. */
        int intern(String text, int from, int to, int h, String[] found) {
            Table t = table;
            int i = find(t, text, from, to, h);
            if (i >= 0) {
                // Pairs with the fence before a key is stored: the key's symbol is the one written.
                VarHandle.acquireFence();
                found[0] = t.keys[i];
                return t.slots.value(i);
            }
            return add(text, from, to, h, found);
        }

        /**
         * The slot of the name in {@code t}, or {@code ~} the free slot where it would go. A slot
         * claimed whose key is not written yet (an add racing this read) does not match.
         */
        private static int find(Table t, String text, int from, int to, int h) {
            String[] keys = t.keys;
            HashSlots slots = t.slots;
            int len = to - from;
            int i = slots.first(h);
            for (String k; i >= 0; i = slots.next(i, h)) {
                if ((k = keys[i]) != null && k.length() == len && k.regionMatches(0, text, from, len)) return i;
            }
            return i;
        }

        private synchronized int add(String text, int from, int to, int h, String[] found) {
            Table t = table;
            int i = find(t, text, from, to, h);
            if (i >= 0) {
                found[0] = t.keys[i];
                return t.slots.value(i);
            }
            String s = from == 0 && to == text.length() ? text : text.substring(from, to);
            int symbol = next.getAndIncrement();
            boolean full = t.slots.claim(~i, h, symbol);
            // Hash and symbol before the key: a reader that finds the key without the lock reads both.
            VarHandle.releaseFence();
            t.keys[~i] = s;
            if (full) {
                // A table of twice the slots, filled before readers see it.
                String[] keys = new String[t.keys.length * 2];
                HashSlots slots = t.slots.grow((a, b) -> keys[b] = t.keys[a]);
                table = new Table(slots, keys);
            }
            found[0] = s;
            return symbol;
        }
    }
}
