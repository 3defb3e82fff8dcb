package bufq.dump.text;

import bufq.dump.file.DumpFile;
import bufq.dump.file.FileKind;
import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.dump.text.Interner;
import bufq.dump.text.ReportPart;
import bufq.dump.text.Warnings;

import bufq.model.LoadOptions;
import bufq.model.HloModule;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The text reader's one entry, as {@code bufq.dump.proto.ProtoReader} is the proto reader's: a
 * file's text, the verdict on whether it is a dump at all, and a module read. A module's files are
 * read in parallel, each file cut at its section headers (and the long
 * {@code Used values} section cut again at value blocks) so the pieces parse in parallel, then
 * hands the parts to {@link ModuleAssembler}. The {@code Used values} section is only cut, not
 * parsed, unless the load asks for it ({@link LoadOptions#readUsedValues}): {@link UsedValuesReader}
 * reads it on first use.
 */
public final class TextReader {
    private TextReader() {}

    /** Target size of a parallel chunk of the Used values section. */
    public static final int CHUNK = DumpText.CHUNK;

    /** The text of a dump file (a {@code .gz} inflated), with a clear one-line error naming it. */
    public static String readText(DumpFile f) throws LoadException { return TextFiles.read(f); }

    /** Refuses text that is not a buffer-assignment dump (nor a section of one, nor a report), with a one-line reason. */
    public static void checkLooksLikeDump(String name, String text) throws LoadException {
        HeadSniff.checkLooksLikeDump(name, text);
    }

    /** As {@link #checkLooksLikeDump(String, String)}, saying what a file of {@code kind} should be. */
    public static void checkLooksLikeDump(String name, FileKind kind, String text) throws LoadException {
        HeadSniff.checkLooksLikeDump(name, kind, text);
    }

    public static HloModule read(ModuleSource source, LoadOptions options) throws LoadException {
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
        boolean valuesNow = options.readUsedValues();
        List<Region> parsed = new ArrayList<>();
        long chars = 0;
        for (Region r : regions) {
            if (valuesNow || r.kind != Region.Kind.VALUES) {
                parsed.add(r);
                chars += r.to - r.from;
            }
        }
        // Sized so its tables need not grow while both cores wait on a stripe's lock: a distinct name
        // every 180 characters of allocation and live-range text (a million-value set: 1.06 million
        // in 197 MB), every 300 with the values section, where names recur in positions and uses.
        Interner in = new Interner((int) Math.min(1 << 24, chars / (valuesNow ? 300 : 180)));
        long t1 = System.nanoTime();
        Region.parseAll(parsed, in, source.name());
        long t2 = System.nanoTime();
        HloModule m = ModuleAssembler.assemble(source, regions, stamps, skipped, skippedFiles);
        if (Region.TRACE) {
            System.err.printf("load %s: open+split %d ms, parse %d ms (%d regions), assemble %d ms%n", source.name(),
                    (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, regions.size(), (System.nanoTime() - t2) / 1_000_000);
        }
        return m;
    }

    /** Opens the files in parallel: each one's {@link DumpText}, or the {@link LoadException} that refused it. */
    private static List<Object> openAll(List<DumpFile> files) {
        return files.parallelStream().map(f -> {
            try {
                return (Object) TextFiles.open(f);
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
        String head = TextFiles.head(src);
        FileKind kind = f.kind();
        if (kind == FileKind.MEMORY_REPORT || (kind == FileKind.OTHER && ReportPart.looksLikeReport(head))) {
            if (head.isBlank()) throw new LoadException(f.name(), "empty file, not a memory usage report");
            out.add(new Region(f, src, Region.Kind.REPORT, 0, src.length()));
            out.get(0).cutOff = src.truncated;
            return out;
        }
        HeadSniff.checkLooksLikeDump(f.name(), kind, head);
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
        chunks(out, f, src, Region.Kind.ALLOCATIONS, 0, allocEnd, "\nallocation ");
        if (used >= 0) chunks(out, f, src, Region.Kind.VALUES, used, live >= 0 ? live : n, "\n<");
        if (live >= 0) out.add(new Region(f, src, Region.Kind.LIVE_RANGE, live, n));
        if (src.truncated && !out.isEmpty()) out.get(out.size() - 1).cutOff = true;
        return out;
    }

    /** Regions of about {@link #CHUNK} covering {@code [start, end)}, each cut before a {@code cutAt} line. */
    private static void chunks(List<Region> out, DumpFile f, DumpText src, Region.Kind kind, int start, int end, String cutAt) {
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
}
