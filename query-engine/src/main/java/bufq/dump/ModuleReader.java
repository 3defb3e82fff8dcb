package bufq.dump;

import bufq.dump.text.AllocationPart;
import bufq.dump.text.Interner;
import bufq.dump.text.Lines;
import bufq.dump.text.LiveRangePart;
import bufq.dump.text.RegionParse;
import bufq.dump.text.ReportPart;
import bufq.dump.text.ValuesPart;
import bufq.dump.text.Warnings;

import bufq.model.DumpPart;
import bufq.model.HloModule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;

/**
 * Reads one module: its files in parallel, each file cut at its section headers (and the long
 * {@code Used values} section cut again at value blocks) so the pieces parse in parallel, then
 * hands the parts to {@link ModuleAssembler}. The {@code Used values} section is only cut, not
 * parsed, unless the load asks for it ({@link DumpPart#USED_VALUES}): {@link UsedValuesReader}
 * reads it on first use.
 */
final class ModuleReader {
    private ModuleReader() {}

    /** Target size of a parallel chunk of the Used values section. */
    static final int CHUNK = 1 << 20;

    enum Kind { ALLOCATIONS, VALUES, LIVE_RANGE, REPORT }

    /** A region of one file; {@code part} is filled by parsing (it stays null while the region waits for a first use). */
    static final class Region {
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
        private long lineCount() {
            return part != null ? part.lines : source.count('\n', from, to);
        }

        /**
         * Where the file ends early in this region, the last of its file, as a line, or 0: from the
         * parse, or, for a Used values region not parsed, from its last bytes alone (the file was cut
         * off, its last line has no newline, or its last value block has no instruction line).
         */
        long endsEarlyAt() {
            if (part instanceof ValuesPart v && v.incompleteAt > 0 && v.truncatedAt == 0) v.truncatedAt = v.incompleteAt;
            if (part != null) return part.truncatedAt == 0 ? 0 : firstLine() + part.truncatedAt - 1;
            boolean unterminated = to > from && source.at(to - 1) != '\n';
            if (!cutOff && !unterminated && !lastBlockIncomplete()) return 0;
            long lines = source.count('\n', from, to) + (unterminated ? 1 : 0);
            return firstLine() + Math.max(1, lines) - 1;
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
            if (cutOff && part.truncatedAt == 0) part.truncatedAt = Math.max(1, part.lines);
            int bad = source instanceof DumpText.ByteText ? text.indexOf('\uFFFD') : -1;
            if (bad >= 0) {
                long line = linesBefore + 1;
                for (int i = 0; i < bad; i++) if (text.charAt(i) == '\n') line++;
                part.warn(line, "bytes that are not UTF-8 (shown as \uFFFD)");
            }
        }
    }

    /** {@code -Dbufq.traceLoad=true}: the load's phases and each thread's parse time on stderr (big dumps). */
    static final boolean TRACE = Boolean.getBoolean("bufq.traceLoad");

    static HloModule read(ModuleSource source, Set<DumpPart> now) throws LoadException {
        long t0 = System.nanoTime();
        List<DumpFile> files = source.dumpFiles();
        List<Object> opened = openAll(files);
        List<UsedValuesReader.Stamp> stamps = new ArrayList<>();
        for (DumpFile f : files) stamps.add(UsedValuesReader.Stamp.of(f));
        List<Region> regions = new ArrayList<>();
        Warnings skipped = new Warnings();
        List<DumpFile> skippedFiles = new ArrayList<>();
        // With a live-range file of its own, the module's other files need no search for that section
        // (a backward scan of a 100 MB file).
        // Likewise with a values file of its own (a four-file set): its allocation file is only the
        // allocations and their total (a forward scan of 100 MB for a header it cannot hold).
        boolean liveFile = false, valuesFile = false;
        for (int i = 0; i < files.size(); i++) {
            liveFile |= files.get(i).kind() == FileKind.LIVE_RANGE && opened.get(i) instanceof DumpText;
            valuesFile |= files.get(i).kind() == FileKind.VALUES && opened.get(i) instanceof DumpText;
        }
        List<Object> cut = splitAll(files, opened, liveFile, valuesFile);
        for (int i = 0; i < files.size(); i++) {
            DumpFile f = files.get(i);
            try {
                if (cut.get(i) instanceof LoadException e) throw e;
                @SuppressWarnings("unchecked") List<Region> parts = (List<Region>) cut.get(i);
                regions.addAll(parts);
            } catch (LoadException e) {
                // A bad sibling (a report with a stray byte, a shuffled live-range file) costs only
                // what it holds; the buffer-assignment file, or a module's only file, is the module.
                if (files.size() == 1 || f.kind() == FileKind.BUFFER_ASSIGNMENT || Thread.currentThread().isInterrupted()) throw e;
                skipped.add(f.origin(), e.line(), e.reason() + "; file skipped, the module is read from its other files");
                skippedFiles.add(f);
            }
        }
        // Regions of a file are in order: each starts where the previous one's lines end.
        for (int i = 1; i < regions.size(); i++) {
            if (regions.get(i).file == regions.get(i - 1).file) {
                regions.get(i).prev = regions.get(i - 1);
                regions.get(i - 1).lastOfFile = false;
            }
        }
        boolean valuesNow = now.contains(DumpPart.USED_VALUES);
        List<Region> parsed = new ArrayList<>();
        long chars = 0;
        for (Region r : regions) {
            if (valuesNow || r.kind != Kind.VALUES) {
                parsed.add(r);
                chars += r.to - r.from;
            }
        }
        // Sized so its tables need not grow while both cores wait on a stripe's lock: a distinct name
        // every 180 characters of allocation and live-range text (a million-value set: 1.06 million
        // in 197 MB), every 300 with the values section, where names recur in positions and uses.
        Interner in = new Interner((int) Math.min(1 << 24, chars / (valuesNow ? 300 : 180)));
        long t1 = System.nanoTime();
        parseAll(parsed, in, source.name());
        long t2 = System.nanoTime();
        HloModule m = ModuleAssembler.assemble(source, regions, stamps, skipped, skippedFiles);
        if (TRACE) {
            System.err.printf("load %s: open+split %d ms, parse %d ms (%d regions), assemble %d ms%n", source.name(),
                    (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, regions.size(), (System.nanoTime() - t2) / 1_000_000);
        }
        return m;
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
        Arrays.sort(order, Comparator.comparingLong(ModuleReader::cost).reversed());
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

    /** Opens the files in parallel: each one's {@link DumpText}, or the {@link LoadException} that refused it. */
    private static List<Object> openAll(List<DumpFile> files) {
        return files.parallelStream().map(f -> {
            try {
                return (Object) f.open();
            } catch (LoadException e) {
                return e;
            }
        }).toList();
    }

    /**
     * Cuts the opened files into regions, the files in parallel (the allocation file's search for a
     * section it may hold reads all of it: a tenth of a second at a million values, beside the others'):
     * per file, its regions, or the {@link LoadException} that refused it (at its opening or now).
     */
    private static List<Object> splitAll(List<DumpFile> files, List<Object> opened, boolean liveFile, boolean valuesFile) {
        return IntStream.range(0, files.size()).parallel().mapToObj(i -> {
            if (opened.get(i) instanceof LoadException e) return (Object) e;
            DumpFile f = files.get(i);
            try {
                return (Object) split(f, (DumpText) opened.get(i), !liveFile || f.kind() == FileKind.LIVE_RANGE,
                        !valuesFile || f.kind() == FileKind.VALUES);
            } catch (LoadException e) {
                return e;
            }
        }).toList();
    }

    /** Cuts a text held in memory (tests). */
    static List<Region> split(DumpFile f, String text) throws LoadException {
        return split(f, DumpText.of(text), true, true);
    }

    /**
     * Cuts a file at its section headers, and long sections again at allocation lines and value
     * blocks, so the pieces parse in parallel; refuses text that is no dump at all. Only the
     * headers a file of this kind can hold are searched for: a scan of a large file costs time.
     */
    static List<Region> split(DumpFile f, DumpText src, boolean mayHoldLiveRanges, boolean mayHoldValues) throws LoadException {
        List<Region> out = new ArrayList<>();
        String head = DumpFile.head(src);
        FileKind kind = f.kind();
        if (kind == FileKind.MEMORY_REPORT || (kind == FileKind.OTHER && ReportPart.looksLikeReport(head))) {
            if (head.isBlank()) throw new LoadException(f.name(), "empty file, not a memory usage report");
            out.add(new Region(f, src, Kind.REPORT, 0, src.length()));
            out.get(0).cutOff = src.truncated;
            return out;
        }
        checkLooksLikeDump(f.name(), kind, head);
        int n = src.length();
        int used = kind == FileKind.LIVE_RANGE || !mayHoldValues ? -1 : lineStart(src, "Used values:", 0);
        int live = -1;
        if (kind != FileKind.VALUES && mayHoldLiveRanges) {
            // The live-range section ends the file: look for it from the end.
            if (src.startsWith("HloLiveRange (max ", 0)) live = 0;
            else {
                int i = src.lastIndexOf("\nHloLiveRange (max ", used < 0 ? 0 : used);
                if (i >= 0) live = i + 1;
            }
            if (live >= 0 && used > live) used = -1;
        }
        int allocEnd = used >= 0 ? used : live >= 0 ? live : n;
        chunks(out, f, src, Kind.ALLOCATIONS, 0, allocEnd, "\nallocation ");
        if (used >= 0) chunks(out, f, src, Kind.VALUES, used, live >= 0 ? live : n, "\n<");
        if (live >= 0) out.add(new Region(f, src, Kind.LIVE_RANGE, live, n));
        if (src.truncated && !out.isEmpty()) out.get(out.size() - 1).cutOff = true;
        return out;
    }

    /** Regions of about {@link #CHUNK} covering {@code [start, end)}, each cut before a {@code cutAt} line. */
    private static void chunks(List<Region> out, DumpFile f, DumpText src, Kind kind, int start, int end, String cutAt) {
        if (end <= start) return;
        while (end - start > CHUNK) {
            int cut = src.indexOf(cutAt, start + CHUNK);
            if (cut < 0 || cut + 1 >= end) break;
            out.add(new Region(f, src, kind, start, cut + 1));
            start = cut + 1;
        }
        out.add(new Region(f, src, kind, start, end));
    }

    /** Offset of the first line at or after {@code from} that starts with {@code header}, or -1. */
    static int lineStart(DumpText text, String header, int from) {
        if (from == 0 && text.startsWith(header, 0)) return 0;
        int i = text.indexOf("\n" + header, Math.max(0, from - 1));
        return i < 0 ? -1 : i + 1;
    }

    /** Refuses text that is not a buffer-assignment dump, with a one-line reason. */
    static void checkLooksLikeDump(String name, String text) throws LoadException {
        checkLooksLikeDump(name, FileKind.OTHER, text);
    }

    /** As {@link #checkLooksLikeDump(String, String)}, saying what a file of {@code kind} should be. */
    static void checkLooksLikeDump(String name, FileKind kind, String text) throws LoadException {
        String noun = kind.noun();
        if (text.isEmpty()) throw new LoadException(name, "empty file, not a " + noun);
        if (text.isBlank()) throw new LoadException(name, "blank file, not a " + noun);
        for (int k = 0, n = Math.min(text.length(), 8192); k < n; k++) {
            if (text.charAt(k) == '\0') {
                long line = 1;
                for (int j = 0; j < k; j++) if (text.charAt(j) == '\n') line++;
                throw new LoadException(name, line, "binary file (a NUL character), not a " + noun);
            }
        }
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) i++;
        if (ReportPart.looksLikeReport(text)) return;
        String[] starts = {"BufferAssignment:", "allocation ", "Total bytes used:", "Used values:", "HloLiveRange (max "};
        for (String s : starts) if (text.startsWith(s, i)) return;
        if (text.startsWith("HloModule ", i)) {
            throw new LoadException(name, 1, "HLO text, not a " + noun + " (expected '" + kind.header() + "')");
        }
        long line = 1;
        for (int k = 0; k < i; k++) if (text.charAt(k) == '\n') line++;
        int eol = text.indexOf('\n', i);
        String first = text.substring(i, eol < 0 ? text.length() : eol);
        if (first.length() > 40) first = first.substring(0, 37) + "...";
        throw new LoadException(name, line, "not a " + noun + " (expected '" + kind.header() + "', found '" + first + "')");
    }
}
