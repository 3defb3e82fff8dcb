package bufq.shell;

import bufq.dump.DumpFile;
import bufq.dump.ModuleSource;
import bufq.model.HloModule;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parsed modules kept between runs by the bufq server, so that running another query on the same
 * dump does not read it again. A module is found again only when every one of its files has the
 * same path, size, modification time and file key (inode) and is named the same way (the names
 * appear in output). Least recently used modules go first once their text exceeds the budget.
 */
public final class ModuleCache {
    private final long budget;
    private final Map<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes, hits, misses;

    /** @param budget bytes of dump text to keep parsed; retained heap is about 0.7-0.9 of that */
    public ModuleCache(long budget) {
        this.budget = budget;
    }

    /** The identity of a module's files on disk, or null when one of them is not a plain file (a frame, a log). */
    public record Key(List<String> parts, long size) {
        public static Key of(ModuleSource s) {
            List<String> parts = new ArrayList<>();
            long size = 0;
            for (DumpFile f : s.dumpFiles()) {
                Path p = f.path();
                if (p == null) return null;
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    if (!a.isRegularFile()) return null;
                    parts.add(f.name() + "\0" + p.toAbsolutePath().normalize() + "\0" + a.size() + "\0"
                            + a.lastModifiedTime().toMillis() + "\0" + a.fileKey());
                    size += a.size();
                } catch (IOException e) {
                    return null;
                }
            }
            return new Key(List.copyOf(parts), size);
        }
    }

    private static final class Entry {
        final HloModule module;
        final long size;
        long lastUsed = System.nanoTime();

        Entry(HloModule module, long size) {
            this.module = module;
            this.size = size;
        }
    }

    public synchronized HloModule get(Key k) {
        Entry e = entries.get(k);
        if (e == null) {
            misses++;
            return null;
        }
        hits++;
        e.lastUsed = System.nanoTime();
        return e.module;
    }

    /** Keeps {@code m}, dropping the least recently used modules until the budget holds; too big a module is not kept. */
    public synchronized void put(Key k, HloModule m) {
        if (k.size() > budget) return;
        Entry old = entries.remove(k);
        if (old != null) bytes -= old.size;
        reserve(k.size());
        entries.put(k, new Entry(m, k.size()));
        bytes += k.size();
    }

    /**
     * Drops the least recently used modules until {@code size} more bytes fit the budget: before a
     * load, so the old modules do not crowd the new one out of the heap, and when keeping it.
     */
    public synchronized void reserve(long size) {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext() && bytes + size > budget; ) {
            bytes -= it.next().size;
            it.remove();
        }
    }

    public synchronized void clear() {
        entries.clear();
        bytes = 0;
    }

    public synchronized String describe() {
        return entries.size() + " module" + (entries.size() == 1 ? "" : "s") + " parsed (" + size(bytes)
                + " of text, budget " + size(budget) + "), " + hits + " reuse" + (hits == 1 ? "" : "s") + ", " + misses + " read" + (misses == 1 ? "" : "s");
    }

    /** One line per module kept, most recently used last: name, first file, text size, idle time. */
    public synchronized List<String> list() {
        List<String> out = new ArrayList<>();
        long now = System.nanoTime();
        for (Entry e : entries.values()) {
            List<String> files = e.module.info().files();
            out.add(e.module.info().name() + "  " + (files.isEmpty() ? "" : files.get(0)) + (files.size() > 1 ? " (+" + (files.size() - 1) + ")" : "")
                    + "  " + size(e.size) + "  used " + (now - e.lastUsed) / 1_000_000_000L + " s ago");
        }
        return out;
    }

    private static String size(long b) {
        if (b < 1_000_000) return String.format(java.util.Locale.ROOT, "%.1f kB", b / 1e3);
        return String.format(java.util.Locale.ROOT, "%.1f MB", b / 1e6);
    }
}
