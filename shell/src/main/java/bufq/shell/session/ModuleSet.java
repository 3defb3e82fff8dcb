package bufq.shell.session;

import bufq.lang.NearNames;
import bufq.api.Reports;
import bufq.model.HloModule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The modules of a session, each under a unique handle. A load of a few modules parses them all
 * at once (in parallel); a big dump directory is only discovered, and its modules are parsed when
 * first used, with at most {@link #CACHE} of them kept in memory besides the current one, so
 * memory stays bounded however many modules a directory holds.
 */
public final class ModuleSet {
    /** Loads of up to this many modules are parsed at once; bigger ones load lazily. */
    public static final int EAGER_LIMIT = 32;
    /** Lazily loaded modules kept in memory besides the current one. */
    public static final int CACHE = 8;

    /** One module: its handle, where it comes from, and the parsed module when in memory. */
    public static final class Entry {
        private final String handle;
        private final Engine.FoundModule source;
        private final boolean lazy;
        private HloModule module;
        private long lastUse;

        Entry(String handle, Engine.FoundModule source, boolean lazy, HloModule module) {
            this.handle = handle;
            this.source = source;
            this.lazy = lazy;
            this.module = module;
        }

        public String handle() { return handle; }
        /** Program name as the files say. */
        public String name() { return source.name(); }
        public List<String> files() { return source.files(); }
        /** XLA's number for the module ({@code 0004} of {@code module_0004...}), or null. */
        public String dumpId() { return DumpIds.of(source.files()); }
        /** The parsed module, or null while it is not in memory. */
        public HloModule loaded() { return module; }
    }

    private final List<Entry> entries = new ArrayList<>();
    /** The lazy entries in memory: what {@link #evict} chooses from, without a walk of every entry per read. */
    private final List<Entry> held = new ArrayList<>();
    private Entry current;
    private long clock;

    /**
     * Adds the modules of {@code sources} under unique handles ({@code name}, {@code name#2}, ...) and
     * makes the first current (parsing it). Small sets are parsed now, so a bad file fails the add.
     */
    public List<Entry> add(List<Engine.FoundModule> sources) throws Engine.Failure {
        return add(sources, line -> {});
    }

    /**
     * As {@link #add(List)}; of several modules parsed now, those that fail are left out and each
     * told to {@code skipped} in one line (its file and why), unless none loads: then the first
     * failure is thrown. One bad file in a dump directory costs only its module.
     */
    public List<Entry> add(List<Engine.FoundModule> sources, Consumer<String> skipped) throws Engine.Failure {
        boolean lazy = sources.size() > EAGER_LIMIT;
        List<HloModule> parsed = null;
        if (!lazy) {
            List<Object> results = parseAll(sources);
            List<Engine.FoundModule> kept = new ArrayList<>(sources.size());
            parsed = new ArrayList<>(sources.size());
            Engine.Failure first = null;
            for (int i = 0; i < results.size(); i++) {
                if (results.get(i) instanceof Engine.Failure f) {
                    if (first == null) first = f;
                    continue;
                }
                kept.add(sources.get(i));
                parsed.add((HloModule) results.get(i));
            }
            // Nothing loaded, or Ctrl-C stopped the load: no partial set.
            if (first != null && (kept.isEmpty() || Thread.currentThread().isInterrupted())) throw first;
            for (Object r : results) if (r instanceof Engine.Failure f) skipped.accept(f.getMessage() + "; module skipped");
            sources = kept;
        }
        List<Entry> added = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        for (Entry e : entries) taken.add(e.handle);
        // ids per name: a repeated name's later modules carry the dump's module number when it tells
        // them apart (jit_f#0004 says which file it is), else #2, #3
        Map<String, List<String>> ids = new HashMap<>();
        for (Engine.FoundModule s : sources) ids.computeIfAbsent(base(s), k -> new ArrayList<>()).add(DumpIds.of(s.files()));
        for (int i = 0; i < sources.size(); i++) {
            Engine.FoundModule s = sources.get(i);
            String h = base(s);
            String id = DumpIds.of(s.files());
            List<String> same = ids.get(h);
            if (taken.contains(h) && id != null && !same.contains(null) && same.stream().distinct().count() == same.size()
                    && !taken.contains(h + "#" + id)) h = h + "#" + id;
            String unique = h;
            for (int k = 2; taken.contains(unique); k++) unique = h + "#" + k;
            taken.add(unique);
            Entry e = new Entry(unique, s, lazy, parsed == null ? null : named(parsed.get(i), unique));
            entries.add(e);
            added.add(e);
        }
        if (!added.isEmpty()) use(opening(added));
        return added;
    }

    /** {@code 7 modules loaded; current: jit_f (the largest peak); 'modules' lists them, 'use' switches}. */
    public static String openedLine(List<Entry> added, Entry current) {
        boolean byPeak = current != null && current != added.get(0);
        return added.size() + " modules loaded; current: " + (current == null ? "none" : current.handle())
                + (byPeak ? " (the largest peak)" : "") + "; 'modules' lists them, 'use' switches";
    }

    /** The handle {@link #add} gives {@code s} as the first module of an empty set. */
    static String handleOfFirst(Engine.FoundModule s) {
        return base(s);
    }

    private static String base(Engine.FoundModule s) {
        return s.name() == null || s.name().isBlank() ? "module" : s.name();
    }

    /**
     * The module to open: the first, but in a profile capture (its first programs are often
     * two-value helpers) the one with the largest peak among those parsed.
     */
    private static Entry opening(List<Entry> added) {
        Entry best = added.get(0);
        if (!DumpIds.capture(best.files())) return best;
        for (Entry e : added) {
            if (e.module == null || !DumpIds.capture(e.files())) continue;
            if (best.module == null || Reports.peakBytes(e.module) > Reports.peakBytes(best.module)) best = e;
        }
        return best;
    }

    /** Parses in parallel: per source, in the given order, its module or its {@link Engine.Failure}. */
    private static List<Object> parseAll(List<Engine.FoundModule> sources) throws Engine.Failure {
        if (sources.size() == 1) return List.of(sources.get(0).load());
        return sources.parallelStream().map(s -> {
            try {
                return (Object) s.load();
            } catch (Engine.Failure f) {
                return f;
            }
        }).toList();
    }

    private static HloModule named(HloModule m, String handle) {
        return handle.equals(m.handle()) ? m : m.withHandle(handle);
    }

    /** The parsed module of {@code e}, parsing it if needed and dropping the least recently used beyond the cache. */
    public HloModule get(Entry e) throws Engine.Failure {
        if (e.module == null) {
            e.module = named(e.source.load(), e.handle);
            if (e.lazy) held.add(e);
            evict(e);
        }
        e.lastUse = ++clock;
        return e.module;
    }

    private void evict(Entry keep) {
        List<Entry> others = new ArrayList<>();
        for (Entry e : held) if (e != keep && e != current) others.add(e);
        others.sort((a, b) -> Long.compare(a.lastUse, b.lastUse));
        for (int i = 0; i < others.size() - (CACHE - 1); i++) {
            others.get(i).module = null;
            held.remove(others.get(i));
        }
    }

    /** Parses {@code e} and makes it current. */
    public void use(Entry e) throws Engine.Failure {
        get(e);
        current = e;
    }

    public Entry currentEntry() { return current; }

    /** The current module (always parsed), or null before anything is loaded. */
    public HloModule current() { return current == null ? null : current.module; }

    public List<Entry> entries() { return List.copyOf(entries); }

    public int size() { return entries.size(); }

    /** By handle, by 1-based number in {@link #entries()}, or by a prefix that matches one handle only. */
    public Entry find(String name) throws CommandException {
        for (Entry e : entries) if (e.handle.equals(name)) return e;
        if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
            try {
                int n = Integer.parseInt(name);
                if (n >= 1 && n <= entries.size()) return entries.get(n - 1);
            } catch (NumberFormatException ignored) {
                // too long to be a number of ours; try it as a name
            }
        }
        List<Entry> prefixed = new ArrayList<>();
        for (Entry e : entries) if (e.handle.startsWith(name)) prefixed.add(e);
        if (prefixed.size() == 1) return prefixed.get(0);
        List<String> handles = entries.stream().map(Entry::handle).toList();
        if (prefixed.size() > 1) {
            List<String> some = prefixed.stream().limit(10).map(Entry::handle).toList();
            throw new CommandException("'" + name + "' matches " + prefixed.size() + " modules: " + String.join(", ", some)
                    + (prefixed.size() > 10 ? ", ..." : ""));
        }
        throw new CommandException("no module '" + name + "'" + NearNames.hint(name, handles)
                + (entries.isEmpty() ? " (nothing loaded)" : " (see 'modules')"));
    }
}
