package bufq.analysis.oom;

import bufq.units.PrintedSize;
import bufq.units.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static bufq.analysis.oom.MessageText.between;
import static bufq.analysis.oom.MessageText.numberAt;
import static bufq.analysis.oom.MessageText.sizeAfter;

/** One message: its headline, the block of lines that belongs to it, and what they say. */
final class MessageParser extends Draft {
    /** A block stops after this many lines (a BFC dump of a big heap is long, never this long). */
    static final int MAX_BLOCK_LINES = 200_000;

    /** Words a line of a GPU {@code BufferAssignment OOM Debugging} block holds. */
    private static final String[] GPU_KEYS = {"BufferAssignment", "allocation:", "fragmentation:", "Peak buffers",
            "Buffer ", "Size:", "Operator:", "XLA Label:", "Shape:", "Entry Parameter Subshape:", "====="};
    /** ... of a TPU compile-time block. */
    private static final String[] TPU_KEYS = {"usage >=", "reserved", "program", "arguments", "Output size",
            "requirement", "global", "scoped", "HLO temp", "overlays", "Largest program allocations", "Size:",
            "Operator:", "Shape:", "Unpadded size:", "Extra memory", "XLA label:", "Allocation type:", "=====",
            "Total ", "E1000", "CompileTimeHbmOom"};
    /** ... of a BFC allocator's dump. */
    private static final String[] BFC_KEYS = {"Bin", "Chunk", "InUse at", "Free  at", "Free at", "Next region",
            "Summary of in-use", "Sum Total", "total_region_allocated", "Stats:", "Limit:", "InUse:", "MaxInUse:",
            "NumAllocs:", "MaxAllocSize:", "Reserved:", "PeakReserved:", "LargestFreeBlock:", "BFCAllocator dump",
            "xla.execute", "xla.buffer", "****", "__", "memory_limit_"};

    private final Map<String, Long> programTotals = new LinkedHashMap<>();

    /** @param early warnings about the headline's own figures ({@link FigureCheck}) */
    MessageParser(Family family, int start, String headline, LogLines lines, List<OomWarning> early) {
        super(family, start, headline, lines, early);
    }

    OomMessage parse() {
        switch (family) {
            case CPU -> {
                requested = need(sizeAfter(headline, "Out of memory allocating "), "a size after 'Out of memory allocating'");
            }
            case GPU_ASSIGNMENT -> {
                requested = need(sizeAfter(headline, "trying to allocate "), "a size after 'trying to allocate'");
                gather(GPU_KEYS);
                gpuBlock();
            }
            case STREAM_EXECUTOR -> {
                String exact = between(headline, "(", "B)");
                PrintedSize printed = sizeAfter(headline, "request for ");
                requested = exact != null && Units.printedOrNull(exact + "B") != null ? Units.printedOrNull(exact + "B") : printed;
                need(requested, "a size after 'request for'");
                long ordinal = numberAt(headline, indexEnd(headline, "device ordinal"));
                if (ordinal >= 0) device = "device ordinal " + ordinal;
            }
            case BFC -> bfc();
            case TPU_COMPILE -> {
                gather(TPU_KEYS);
                TpuReport.compile(this);
            }
            case TPU_ALLOCATION -> TpuReport.allocation(this);
            case TPU_BUFFER -> {
                continued("Attempting to allocate ", "There are ");
                requested = need(sizeAfter(headline, "Attempting to allocate "), "a size after 'Attempting to allocate'");
                free = sizeAfter(headline, "There are ");
                device = TpuReport.device(headline);
                space = "hbm";
            }
            case TPU_PROGRAM_LOAD -> {
                continued("Attempting to reserve ", "There are ");
                program = between(headline, "program '", "'");
                requested = need(sizeAfter(headline, "Attempting to reserve "), "a size after 'Attempting to reserve'");
                int there = headline.indexOf("There are ");
                if (there >= 0) {
                    free = sizeAfter(headline, "There are ");
                    put("free", free);
                    put("reserved", sizeBefore(headline, " reserved", there));
                    put("reservable", sizeBefore(headline, " reservable", there));
                }
                space = "hbm";
                device = TpuReport.device(headline);
                gather(TpuReport.RESERVE_KEYS);
                TpuReport.reserve(this);
            }
            case SPARSECORE -> {
                PrintedSize tc = sizeAfter(headline, "TensorCore Hbm usage:");
                PrintedSize sc = sizeAfter(headline, "SparseCore Hbm usage");
                put("TensorCore Hbm usage", tc);
                put("SparseCore Hbm usage", sc);
                // the last figure is what the device has (error_1000.md): its capacity, not an excess
                capacity = need(sizeAfter(headline, "exceeding available bytes:"), "a size after 'exceeding available bytes:'");
                if (tc != null && sc != null)
                    used = new PrintedSize(tc.text() + " + " + sc.text(), tc.low() + sc.low(), tc.high() + sc.high());
                space = "hbm";
            }
        }
        int end = blockLines.isEmpty() ? start : blockLines.get(blockLines.size() - 1);
        return new OomMessage(family, start, end, headline, requested, capacity, used, free, exceeded, program, device,
                space, allocationIndex, figures, buffers, programTotals, warnings, List.of(), 1);
    }

    private static int indexEnd(String s, String key) {
        int i = s.indexOf(key);
        return i < 0 ? s.length() : i + key.length();
    }

    /** The size ending just before {@code word} (the last one before it, after {@code from}), or null. */
    static PrintedSize sizeBefore(String s, String word, int from) {
        int w = s.indexOf(word, from);
        if (w < 0) return null;
        int i = w;
        while (i > from && s.charAt(i - 1) != ' ' && s.charAt(i - 1) != ',') i--;
        return Units.printedOrNull(s.substring(i, w));
    }

    /**
     * Reads the lines after the headline that belong to the message: lines holding one of {@code keys},
     * at most one blank line in a row, and up to two other lines in a row (a wrapped line's rest).
     * Stops at another message's headline and at the end of the text.
     */
    private void gather(String[] keys) {
        int unknown = 0, blanks = 0;
        while (true) {
            String next = lines.peek();
            if (next == null) {
                endOfText = true;
                return;
            }
            if (Headlines.startsMessage(next)) return;
            if (block.size() >= MAX_BLOCK_LINES) {
                warnings.add(new OomWarning(lines.number() + 1, "message longer than " + MAX_BLOCK_LINES
                        + " lines: read no further"));
                return;
            }
            if (next.isEmpty()) {
                if (++blanks > 1) return;
                lines.next();
                continue;
            }
            boolean known = false;
            for (String k : keys) {
                if (next.contains(k)) {
                    known = true;
                    break;
                }
            }
            if (known) unknown = 0;
            else if (++unknown > 2 || blanks > 0) return;
            blanks = 0;
            consume();
            if (lines.binary()) return;
            block.add(next);
            blockLines.add(lines.number());
        }
    }

    /**
     * A TPU runtime message a terminal or log split at its line break ({@code Error loading program
     * 'NAME':} / {@code Attempting to reserve ...} / {@code There are ...}): its next lines join the
     * headline while they start with a part it lacks.
     */
    private void continued(String... parts) {
        for (int k = 0; k < parts.length + 1; k++) {
            String next = lines.peek();
            if (next == null) return;
            boolean joins = false;
            for (String p : parts) joins |= next.startsWith(p) && !headline.contains(p);
            if (!joins && !next.startsWith("That was not possible")) return;
            consume();
            blockLines.add(lines.number());
            headline = headline + " " + next;
        }
    }

    // ---- GPU: BufferAssignment OOM Debugging (xla/service/buffer_assignment.cc) ----

    private void gpuBlock() {
        EntryReader entries = null;
        for (int i = 0; i < block.size(); i++) {
            String s = block.get(i);
            int line = blockLines.get(i);
            if (entries == null && (s.endsWith("allocation:") || s.contains("allocation:") || s.contains("fragmentation:"))
                    && !s.startsWith("Size:")) {
                int colon = s.indexOf(':');
                PrintedSize v = Units.printedAt(s, colon + 1, null);
                if (v != null) figures.put(s.substring(0, colon).strip(), v);
                if (s.startsWith("total allocation")) used = v;
                continue;
            }
            if (s.startsWith("Peak buffers")) {
                entries = new EntryReader(buffers, warnings);
                continue;
            }
            if (entries != null) entries.line(s, line);
        }
        if (entries != null) entries.finish(endOfText, blockLines.isEmpty() ? start : blockLines.get(blockLines.size() - 1));
    }

    // ---- BFC allocator (tsl/framework/bfc_allocator.cc) ----

    private void bfc() {
        device = between(headline, "Allocator (", ")");
        PrintedSize printed = sizeAfter(headline, "trying to allocate ");
        int r = headline.indexOf("(rounded to ");
        long rounded = r < 0 ? -1 : numberAt(headline, r + "(rounded to ".length());
        if (printed != null && rounded >= 0) {
            // BFC rounds a request up to a multiple of 256: the request is at most the rounded figure.
            long lo = Math.max(printed.low(), rounded - 255), hi = Math.min(Math.max(printed.high(), lo), rounded);
            requested = new PrintedSize(printed.text() + " (rounded to " + rounded + ")", Math.min(lo, hi), hi);
        } else {
            requested = printed;
        }
        need(requested, "a size after 'trying to allocate'");
        gather(BFC_KEYS);
        for (int i = 0; i < block.size(); i++) {
            String s = block.get(i);
            if (s.equals("Stats:")) continue;
            if (s.startsWith("Limit:")) capacity = keep("Limit", Units.printedAt(s, 6, null));
            else if (s.startsWith("InUse:")) used = keep("InUse", Units.printedAt(s, 6, null));
            else if (s.startsWith("MaxInUse:")) put("MaxInUse", Units.printedAt(s, 9, null));
            else if (s.startsWith("Sum Total of in-use chunks:")) put("Sum Total of in-use chunks", Units.printedAt(s, 27, null));
            else if (s.startsWith("LargestFreeBlock:")) put("LargestFreeBlock", Units.printedAt(s, 17, null));
            if (s.contains("InUse at") && s.contains("of size ")) chunk(s, blockLines.get(i));
        }
        if (capacity == null) {
            PrintedSize limit = null;
            for (String s : block) if (s.contains("memory_limit_:")) limit = sizeAfter(s, "memory_limit_:");
            if (limit != null) capacity = keep("memory_limit_", limit);
        }
    }

    private PrintedSize keep(String name, PrintedSize s) {
        put(name, s);
        return s;
    }

    /** An in-use chunk; kept as a listed buffer when it carries the 2026 annotations (openxla/xla PR 44246). */
    private void chunk(String s, int line) {
        // bytes before 2026, human-readable after (1.50MiB): the interval that prints so
        PrintedSize printed = Units.printedAt(s, s.indexOf("of size ") + 8, null);
        long size = printed == null ? -1 : printed.low();
        String exec = attribute(s, "xla.execute{", "executable");
        String kind = attribute(s, "xla.buffer{", "kind");
        String index = attribute(s, "xla.buffer{", "allocation_index");
        if (exec == null && kind == null && index == null) return;
        int alloc = -1;
        try {
            if (index != null) alloc = Integer.parseInt(index);
        } catch (NumberFormatException e) {
            warnings.add(new OomWarning(line, "allocation_index=" + index + " is no number"));
        }
        if (exec != null && printed != null && printed.isExact()) programTotals.merge(exec, size, Long::sum);
        if (program == null) program = exec;
        buffers.add(new ListedBuffer(line, buffers.size() + 1, printed, null, false, null,
                null, -1, -1, null, null, null, null, null, null, alloc, exec, kind));
    }

    /** {@code key}'s value inside {@code open...}} of {@code s}: {@code xla.buffer{kind=live_out, allocation_index=3}}. */
    static String attribute(String s, String open, String key) {
        int o = s.indexOf(open);
        if (o < 0) return null;
        int close = s.indexOf('}', o);
        String inner = s.substring(o + open.length(), close < 0 ? s.length() : close);
        for (String part : inner.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0 && part.substring(0, eq).strip().equals(key)) return part.substring(eq + 1).strip();
        }
        return null;
    }
}
