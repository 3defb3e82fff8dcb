package bufq.dump.text;

import bufq.dump.file.DumpFile;
import bufq.dump.file.LoadException;
import bufq.dump.text.AllocationPart;
import bufq.dump.text.Interner;
import bufq.dump.text.Lines;
import bufq.dump.text.LiveRangePart;
import bufq.dump.text.RegionParse;
import bufq.dump.text.ReportPart;
import bufq.dump.text.ValuesPart;


import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A region of one file (a section, or a chunk of a long one), cut by {@link TextReader}; {@code part}
 * is filled by parsing (it stays null while the region waits for a first use). {@link #parseAll}
 * parses regions in parallel, at load or on a part's first use ({@link UsedValuesReader}).
 */
final class Region {
    enum Kind { ALLOCATIONS, VALUES, LIVE_RANGE, REPORT }

    /** {@code -Dbufq.traceLoad=true}: the load's phases and each thread's parse time on stderr (big dumps). */
    static final boolean TRACE = Boolean.getBoolean("bufq.traceLoad");

    final DumpFile file;
    final DumpText source;
    final Kind kind;
    final int from, to;
    RegionParse part;
    /** The region before this one in the same file, or null. */
    Region prev;
    /** No region follows this one in its file. */
    boolean lastOfFile = true;
    /** The load reported that the file ends early here (so a later read of the region does not again). */
    boolean truncationReported;
    private long firstLine;
    /** The file's content ended early here, whatever the text looks like. */
    boolean cutOff;

    Region(DumpFile file, DumpText source, Kind kind, int from, int to) {
        this.file = file;
        this.source = source;
        this.kind = kind;
        this.from = from;
        this.to = to;
    }

    /**
     * Line of the file where the region starts. The lines of a region not parsed are counted
     * only when asked: a warning in a later region of a single-file dump needs them.
     */
    long firstLine() {
        if (firstLine == 0) firstLine = prev == null ? file.firstLine() : prev.firstLine() + prev.lineCount();
        return firstLine;
    }

    void firstLine(long line) { firstLine = line; }

    /** Lines in the region; one not parsed is followed by another, so it ends with its last line's newline. */
    long lineCount() {
        return part != null ? part.lines() : source.count('\n', from, to);
    }

    /**
     * Where the file ends early in this region, the last of its file, as a line, or 0: from the
     * parse, or, for a Used values region not parsed, from its last bytes alone (the file was cut
     * off, its last line has no newline, or its last value block has no instruction line).
     */
    long endsEarlyAt() {
        if (part instanceof ValuesPart v && v.incompleteAt > 0) v.cutShortAt(v.incompleteAt);
        if (part != null) return part.truncatedAt() == 0 ? 0 : firstLine() + part.truncatedAt() - 1;
        boolean unterminated = to > from && source.at(to - 1) != '\n';
        if (!cutOff && !unterminated && !lastBlockIncomplete()) return 0;
        long lines = source.count('\n', from, to) + (unterminated ? 1 : 0);
        return firstLine() + Math.max(1, lines) - 1;
    }

    /** Where a file stops short of its format's last section, and what is missing. */
    record Cut(Region region, long line, String what) {}

    /**
     * The first file of {@code regions} whose last section stops short of what XLA writes after it,
     * or null: its last allocation without all its value bytes (in every allocation of the corpus
     * the values reach its size), or a blank line after it with no {@code Total bytes used}; a
     * {@code Used values:} header without a value; or, in a single-file dump with a
     * human-readable total (2022 on: the TF era's files end with their values), the values with no
     * {@code HloLiveRange} section after them. A region whose parse warned is left alone: a damaged
     * line is named where it is. Only whole lines are judged: a file cut inside a line says so itself.
     */
    static Cut sectionCut(List<Region> regions, boolean moduleHasLiveRange) {
        for (Region r : regions) {
            if (!r.lastOfFile || r.cutOff) continue;
            long last = r.firstLine() + Math.max(1, r.lineCount()) - 1;
            if (r.part instanceof AllocationPart a && a.notes().isEmpty() && a.dropped() == 0 && a.truncatedAt() == 0) {
                // One that ends at its total holds all its allocations (the total says so): trimmed, or written by hand.
                if (a.lastShort != null) return new Cut(r, last, a.lastShort);
            } else if (r.kind == Kind.VALUES && r.endsEarlyAt() == 0) {
                if (r.source.startsWith("Used values:", r.from) && !r.holdsBlock())
                    return new Cut(r, last, "its 'Used values:' section has no value");
                if (r.file.kind() == bufq.dump.file.FileKind.BUFFER_ASSIGNMENT && !moduleHasLiveRange && humanTotal(regions, r.file))
                    return new Cut(r, last, "it stops in its 'Used values:' section, before the 'HloLiveRange' section that ends a dump of its era");
            }
        }
        return null;
    }

    private static boolean humanTotal(List<Region> regions, DumpFile file) {
        for (Region r : regions) if (r.file == file && r.part instanceof AllocationPart a && a.totalHuman) return true;
        return false;
    }

    /** Whether a value block starts in the region. */
    private boolean holdsBlock() {
        if (source.startsWith("<", from)) return true;
        int i = source.indexOf("\n<", from);
        return i >= 0 && i + 1 < to;
    }

    private boolean lastBlockIncomplete() {
        int last = source.lastIndexOf("\n<", from);
        int header = last >= 0 ? last + 1 : source.startsWith("<", from) ? from : -1;
        return header >= 0 && source.indexOf("\n from instruction:", header) < 0;
    }

    /** Decodes the region (bytes become text only now) and parses it. */
    void parse(Interner shared) {
        Interner in = shared.local(to - from);
        try {
            read(in);
        } finally {
            // The part keeps its view of the interner: not the region's text and bytes with it
            // (at a million values, every region's text held at once until the module is joined).
            in.forgetRegion();
        }
    }

    private void read(Interner in) {
        if (kind == Kind.LIVE_RANGE) {
            // The stack-trace tree at the end draws with box glyphs: decoded apart, so the
            // million range lines before it stay one byte per character.
            int tree = source.lastIndexOf("\n  Stack trace breakdown for peak usage:", from);
            if (tree >= 0 && tree < to) {
                // The tail first: the head's bytes (a per-thread copy) must outlive its parse.
                String tail = source.text(tree + 1, to);
                String head = source instanceof DumpText.ByteText bytes ? bytes.text(from, tree + 1, in) : source.text(from, tree + 1);
                part = LiveRangePart.parse(head, tail, in);
                finish(head, 0);
                finish(tail, ((LiveRangePart) part).headLines);
                return;
            }
        }
        String text = source instanceof DumpText.ByteText bytes ? bytes.text(from, to, in) : source.text(from, to);
        part = switch (kind) {
            case ALLOCATIONS -> AllocationPart.parse(text, 0, text.length(), in);
            case VALUES -> ValuesPart.parse(text, 0, text.length(), in);
            case LIVE_RANGE -> LiveRangePart.parse(text, 0, text.length(), in);
            case REPORT -> ReportPart.parse(text, 0, text.length(), in);
        };
        finish(text, 0);
    }

    private void finish(String text, long linesBefore) {
        if (cutOff) part.cutShortAt(Math.max(1, part.lines()));
        int bad = source instanceof DumpText.ByteText ? text.indexOf('\uFFFD') : -1;
        if (bad >= 0) {
            long line = linesBefore + 1;
            for (int i = 0; i < bad; i++) if (text.charAt(i) == '\n') line++;
            part.warn(line, "bytes that are not UTF-8 (shown as \uFFFD)");
        }
    }

    /**
     * Parses the regions in parallel: the calling thread and the common pool's threads each take the
     * next region, the costliest first, so no big region is left to run alone at the end (the
     * live-range section of a four-file set is one region, and the slowest to read per byte: split
     * in list order, one core finished 30 ms before the other on the 28 MB module). Ctrl-C in the
     * REPL interrupts the calling thread; the parsers look at it before each region (about a
     * megabyte), so a big load stops within a fraction of a second. A helper that no thread has
     * started when the caller is done is called off rather than waited for: the pool's threads may
     * be waiting for this read themselves (a model accessor reading a part on first use).
     */
    static void parseAll(List<Region> regions, Interner in, String module) throws LoadException {
        Thread caller = Thread.currentThread();
        Map<String, Long> busy = TRACE ? new ConcurrentHashMap<>() : null;
        Region[] order = regions.toArray(new Region[0]);
        Arrays.sort(order, Comparator.comparingLong(Region::cost).reversed());
        AtomicInteger next = new AtomicInteger();
        Runnable worker = () -> {
            for (int i; (i = next.getAndIncrement()) < order.length; ) {
                if (caller.isInterrupted()) throw new ReadCancelled();
                Region r = order[i];
                long a = System.nanoTime();
                r.parse(in);
                if (busy != null) busy.merge(Thread.currentThread().getName() + "/" + r.kind, System.nanoTime() - a, Long::sum);
            }
        };
        int helpers = Math.min(order.length - 1, ForkJoinPool.getCommonPoolParallelism());
        List<ForkJoinTask<?>> tasks = new ArrayList<>();
        // Per helper: 0 not started, 1 started, -1 called off before it started.
        AtomicIntegerArray state = new AtomicIntegerArray(Math.max(0, helpers));
        for (int k = 0; k < helpers; k++) {
            int self = k;
            tasks.add(ForkJoinTask.adapt(() -> { if (state.compareAndSet(self, 0, 1)) worker.run(); }).fork());
        }
        RuntimeException failed = null;
        try {
            worker.run();
        } catch (RuntimeException e) {
            failed = e;
            next.set(order.length);   // the helpers stop after their current region
        }
        for (int k = 0; k < tasks.size(); k++) {
            ForkJoinTask<?> t = tasks.get(k);
            try {
                // A helper no thread took is simply dropped: the regions are done.
                if (!t.tryUnfork() && !state.compareAndSet(k, 0, -1)) t.join();
            } catch (RuntimeException e) {
                if (failed == null) failed = e;
            }
        }
        if (failed != null) {
            // The pool may rethrow a worker's exception as a copy with the original as its cause.
            for (Throwable t = failed; t != null; t = t.getCause()) if (t instanceof ReadCancelled) throw new LoadException(module, "cancelled");
            throw failed;
        }
        if (busy != null) busy.forEach((k, v) -> System.err.println("  " + k + " " + v / 1_000_000 + " ms"));
        if (caller.isInterrupted()) throw new LoadException(module, "cancelled");
    }

    /** A region's expected parse time, in bytes read: a live-range section reads about half as fast. */
    private static long cost(Region r) {
        return (long) (r.to - r.from) * (r.kind == Kind.LIVE_RANGE ? 2 : 1);
    }

    /** Thrown out of the parallel parse when the loading thread was interrupted. */
    private static final class ReadCancelled extends RuntimeException {
        ReadCancelled() { super("cancelled", null, false, false); }
    }
}
