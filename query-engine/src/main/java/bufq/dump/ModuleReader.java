package bufq.dump;

import bufq.model.Module;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * Reads one module: its files in parallel, each file cut at its section headers (and the long
 * {@code Used values} section cut again at value blocks) so the pieces parse in parallel, then
 * hands the parts to {@link ModuleAssembler}.
 */
final class ModuleReader {
    private ModuleReader() {}

    /** Target size of a parallel chunk of the Used values section. */
    static final int CHUNK = 1 << 20;

    enum Kind { ALLOCATIONS, VALUES, LIVE_RANGE, REPORT }

    /** A region of one file; {@code part} is filled by parsing. */
    static final class Region {
        final DumpFile file;
        final String text;
        final Kind kind;
        final int from, to;
        Part part;
        long firstLine;

        Region(DumpFile file, String text, Kind kind, int from, int to) {
            this.file = file;
            this.text = text;
            this.kind = kind;
            this.from = from;
            this.to = to;
        }

        void parse(Interner in) {
            part = switch (kind) {
                case ALLOCATIONS -> AllocationPart.parse(text, from, to, in);
                case VALUES -> ValuesPart.parse(text, from, to, in);
                case LIVE_RANGE -> LiveRangePart.parse(text, from, to, in);
                case REPORT -> ReportPart.parse(text, from, to, in);
            };
        }
    }

    static Module read(ModuleSource source) throws LoadException {
        List<String> texts = readAll(source.dumpFiles());
        List<Region> regions = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            DumpFile f = source.dumpFiles().get(i);
            regions.addAll(split(f, texts.get(i)));
        }
        Interner in = new Interner();
        regions.parallelStream().forEach(r -> r.parse(in));
        // Regions of a file are in order: each starts where the previous one's lines end.
        DumpFile prev = null;
        long line = 1;
        for (Region r : regions) {
            if (r.file != prev) { line = 1; prev = r.file; }
            r.firstLine = line;
            line += r.part.lines;
        }
        return ModuleAssembler.assemble(source, regions);
    }

    private static List<String> readAll(List<DumpFile> files) throws LoadException {
        try {
            return files.parallelStream().map(f -> {
                try {
                    return f.read();
                } catch (LoadException e) {
                    throw new CompletionException(e);
                }
            }).toList();
        } catch (CompletionException e) {
            if (e.getCause() instanceof LoadException le) throw le;
            throw e;
        }
    }

    /** Cuts a file at its section headers; refuses text that is no dump at all. */
    static List<Region> split(DumpFile f, String text) throws LoadException {
        List<Region> out = new ArrayList<>();
        if (f.kind() == FileKind.MEMORY_REPORT || (f.kind() == FileKind.OTHER && ReportPart.looksLikeReport(text))) {
            if (text.isBlank()) throw new LoadException(f.name(), "empty file, not a memory usage report");
            out.add(new Region(f, text, Kind.REPORT, 0, text.length()));
            return out;
        }
        checkLooksLikeDump(f.name(), text);
        int used = lineStart(text, "Used values:", 0);
        int live = lineStart(text, "HloLiveRange (max ", used < 0 ? 0 : used);
        int allocEnd = used >= 0 ? used : live >= 0 ? live : text.length();
        if (allocEnd > 0) out.add(new Region(f, text, Kind.ALLOCATIONS, 0, allocEnd));
        if (used >= 0) {
            int end = live >= 0 ? live : text.length();
            int start = used;
            while (end - start > CHUNK) {
                int cut = text.indexOf("\n<", start + CHUNK);
                if (cut < 0 || cut + 1 >= end) break;
                out.add(new Region(f, text, Kind.VALUES, start, cut + 1));
                start = cut + 1;
            }
            out.add(new Region(f, text, Kind.VALUES, start, end));
        }
        if (live >= 0) out.add(new Region(f, text, Kind.LIVE_RANGE, live, text.length()));
        return out;
    }

    /** Offset of the first line at or after {@code from} that starts with {@code header}, or -1. */
    static int lineStart(String text, String header, int from) {
        if (from == 0 && text.startsWith(header)) return 0;
        int i = text.indexOf("\n" + header, Math.max(0, from - 1));
        return i < 0 ? -1 : i + 1;
    }

    /** Refuses text that is not a buffer-assignment dump, with a one-line reason. */
    static void checkLooksLikeDump(String name, String text) throws LoadException {
        if (text.isEmpty()) throw new LoadException(name, "empty file, not a buffer-assignment dump");
        if (text.isBlank()) throw new LoadException(name, "blank file, not a buffer-assignment dump");
        for (int k = 0, n = Math.min(text.length(), 8192); k < n; k++) {
            if (text.charAt(k) == '\0') throw new LoadException(name, "binary file, not a buffer-assignment dump");
        }
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) i++;
        if (ReportPart.looksLikeReport(text)) return;
        String[] starts = {"BufferAssignment:", "allocation ", "Total bytes used:", "Used values:", "HloLiveRange (max "};
        for (String s : starts) if (text.startsWith(s, i)) return;
        if (text.startsWith("HloModule ", i)) {
            throw new LoadException(name, 1, "HLO text, not a buffer-assignment dump (expected 'BufferAssignment:')");
        }
        long line = 1;
        for (int k = 0; k < i; k++) if (text.charAt(k) == '\n') line++;
        int eol = text.indexOf('\n', i);
        String first = text.substring(i, eol < 0 ? text.length() : eol);
        if (first.length() > 40) first = first.substring(0, 37) + "...";
        throw new LoadException(name, line, "not a buffer-assignment dump (expected 'BufferAssignment:', found '" + first + "')");
    }
}
