package bufq.analysis.oom;

import bufq.units.PrintedSize;
import bufq.units.Units;

import static bufq.analysis.oom.MessageText.between;
import static bufq.analysis.oom.MessageText.numberAt;
import static bufq.analysis.oom.MessageText.sizeAfter;

/**
 * The TPU reports of a message: compile time (docs/errors/error_1000.md, with and without its
 * headline, the E1000 fast exit, the 2026 wording), one {@code #allocationK} (error_1001.md), the
 * runtime's device (E0100) and a program load's reservation (E0101, and the older form with an
 * {@code HBM capacity} block of exact byte counts).
 */
final class TpuReport {
    private TpuReport() {}

    /**
     * The figure of the compile-time check {@code the total memory required for HLO temporaries (X)}:
     * the failing compile's HBM allocations in all (color 0), not its temp.
     */
    static final String HLO_TEMPORARIES = "HLO temporaries";

    /** Words a line of a program load's reservation block holds (pytorch/xla#1735). */
    static final String[] RESERVE_KEYS = {"HBM capacity", "reserved", "allocated", "requirement", "Available after",
            "-----", "reservation", "usage >=", "heap allocations", "program", "Heap allocator", "free chunk",
            "Persistent allocations", "arguments", "output", "global", "scoped", "HLO temp", "overlays",
            "Largest program allocations", "Size:", "Operator:", "Shape:", "Unpadded size:", "Extra memory", "XLA label:",
            "Allocation type:", "====="};

    /**
     * The device a TPU runtime message names: {@code (0x0x0_HBM0)}, {@code (1x0x0_HBM0)}: chip
     * coordinates and the HBM, or null.
     */
    static String device(String h) {
        int i = h.indexOf("_HBM");
        if (i < 0) return null;
        int open = h.lastIndexOf('(', i), close = h.indexOf(')', i);
        if (open < 0 || close < 0 || i - open > 40) return null;
        String d = h.substring(open + 1, close);
        for (int k = 0; k < d.length(); k++) if (!Character.isLetterOrDigit(d.charAt(k)) && d.charAt(k) != '_') return null;
        return d;
    }

    /**
     * {@code Aborting compilation early because it's unlikely to have enough memory. Requires 3.47E,
     * has 14.49G available} (jax#7822, error_1000.md) and {@code Ran out of memory on HBM, the total
     * memory required for HLO temporaries (32.55G) exceeds available HBM (31.25G)} (2026): what the
     * program needs, and what the device has. The latter's figure, despite its words, is every HBM
     * allocation of the failing compile (its memory-usage report's color-0 {@code Total bytes}:
     * parameters, outputs, temp, thread-local), printed in GiB; some builds end it with
     * {@code HLO module: NAME.}, the program.
     */
    private static void fastExitAnd2026(Draft p, String head) {
        int r = head.indexOf("Requires ");
        if (head.contains("Aborting compilation early") && r >= 0) {
            int[] end = {0};
            p.used = Units.printedAt(head, r + 9, end);
            p.put("requires", p.used);
            int has = head.indexOf("has ", end[0]);
            if (has >= 0 && head.indexOf(" available", has) > has) {
                p.capacity = Units.printedAt(head, has + 4, null);
                p.put("available", p.capacity);
            }
            p.space = "hbm";
        }
        if (head.contains("Ran out of memory on HBM")) {
            String temps = between(head, "HLO temporaries (", ")");
            String avail = between(head, "available HBM (", ")");
            p.used = temps == null ? null : Units.printedOrNull(temps);
            p.put(HLO_TEMPORARIES, p.used);
            p.capacity = avail == null ? null : Units.printedOrNull(avail);
            p.space = "hbm";
            int named = head.indexOf("HLO module: ");
            if (named >= 0 && p.program == null) {
                String module = head.substring(named + 12).strip().split("\\s", 2)[0];
                if (module.endsWith(".")) module = module.substring(0, module.length() - 1);
                if (!module.isEmpty()) p.program = module;
            }
        }
    }

    /**
     * The reservation block of a program load (pytorch/xla#1735): {@code HBM capacity 8.00G:},
     * {@code Currently allocated: 6.08G (6,532,939,776 bytes)}, {@code Program requirement: 3.95G
     * (4,237,689,856 bytes)}, {@code Available after request: -2.55G (-2,735,391,744 bytes)}; the exact
     * byte counts where printed. A listed allocation report after it is read as at compile time.
     */
    static void reserve(Draft p) {
        for (String s : p.block) {
            if (s.startsWith("HBM capacity")) p.capacity = Units.printedAt(s, 12, null);
            else if (s.startsWith("Top-of-Memory reserved:")) p.put("Top-of-Memory reserved", exact(s));
            else if (s.startsWith("Currently allocated:")) p.used = exact(s);
            else if (s.startsWith("Program requirement:")) {
                PrintedSize req = exact(s);
                if (req != null) p.requested = req;
            } else if (s.startsWith("Available after request:")) {
                // a balance, negative when the request does not fit: the one figure a message prints below zero
                String n = between(s, "(", " bytes)");
                long v = n == null ? Long.MIN_VALUE : signed(n.strip());
                if (v != Long.MIN_VALUE) p.figures.put("available after request", new PrintedSize(s.substring(24).strip(), v, v));
            }
        }
        if (p.capacity != null) p.put("HBM capacity", p.capacity);
        for (String s : p.block) {
            if (s.startsWith("Largest program allocations")) {
                compile(p);
                return;
            }
        }
    }

    /** {@code 6.08G (6,532,939,776 bytes)} after a colon: the exact count where printed, else the printed size. */
    private static PrintedSize exact(String s) {
        int colon = s.indexOf(':');
        int[] end = {0};
        PrintedSize printed = Units.printedAt(s, colon + 1, end);
        String n = between(s.substring(colon + 1), "(", " bytes)");
        PrintedSize e = n == null ? null : Units.printedOrNull(n.strip());
        if (e != null && e.isExact() && (printed == null || printed.contains(e.low())))
            return new PrintedSize((printed == null ? "" : printed.text() + " ") + "(" + n.strip() + " bytes)", e.low(), e.low());
        return printed;
    }

    private static long signed(String n) {
        String t = n.replace(",", "");
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }

    // ---- TPU compile time (docs/errors/error_1000.md) ----

    static void compile(Draft p) {
        StringBuilder all = new StringBuilder(p.headline);
        for (String s : p.block) all.append('\n').append(s);
        String text = all.toString();
        int listAt = text.indexOf("Largest program allocations");
        String head = (listAt < 0 ? text : text.substring(0, listAt)).replace('\n', ' ');
        int sp = head.indexOf("memory space ");
        if (sp >= 0) {
            int e = sp + 13;
            while (e < head.length() && Character.isLetterOrDigit(head.charAt(e))) e++;
            p.space = head.substring(sp + 13, e);
        }
        String sName = p.space == null ? "hbm" : p.space;
        int u = head.indexOf("Used ");
        if (u >= 0) {
            int[] end = {u + 5};
            p.used = Units.printedAt(head, u + 5, end);
            if (p.used != null && head.startsWith(" of ", end[0])) p.capacity = Units.printedAt(head, end[0] + 4, null);
        }
        p.exceeded = sizeAfter(head, "capacity by ");
        fastExitAnd2026(p, head);
        boolean onStack = onStack(p, head);
        if (p.used == null && p.exceeded == null && !onStack)
            p.need(null, "'Used X of Y " + sName + "' after 'Ran out of memory'");
        int total = head.indexOf("usage >=");
        int output = head.indexOf("Output size");
        int req = head.indexOf(" requirement ");
        if (total >= 0) {
            p.put("total " + sName + " usage", Units.printedAt(head, total + 8, null));
            int stop = output >= 0 ? output : req >= 0 ? req : head.length();
            String rows = head.substring(total, Math.max(total, stop));
            p.put("reserved", sizeAfter(rows, "reserved "));
            p.put("program", sizeAfter(rows, "program "));
            p.put("arguments", sizeAfter(rows, "arguments "));
        }
        if (output >= 0) {
            p.put("output", Units.printedAt(head, output + 11, null));
            p.put("output shared with arguments", sizeAfter(head, "shares ", output));
        }
        if (req >= 0) {
            String rows = head.substring(req);
            p.put("program requirement", Units.printedAt(rows, 13, null));
            p.put("global", sizeAfter(rows, "global "));
            p.put("scoped", sizeAfter(rows, "scoped "));
            p.put("HLO temp", sizeAfter(rows, "HLO temp "));
            p.put("HLO temp unpadded", sizeAfter(rows, "Unpadded ("));
            p.put("HLO temp padded", sizeAfter(rows, "Padded ("));
            p.put("HLO temp fragmentation", sizeAfter(rows, "fragmentation ("));
            p.put("overlays", sizeAfter(rows, "overlays "));
        }
        if (listAt >= 0) {
            EntryReader entries = new EntryReader(p.buffers, p.warnings);
            int line = p.start;
            // Entries by line; p.lines glued together by a browser are cut again at "Size:".
            String[] ls = text.substring(listAt).split("\n", -1);
            int base = lineOfOffset(p, text, listAt);
            for (int i = 0; i < ls.length; i++) {
                line = base + i;
                for (String piece : EntryReader.splitGlued(ls[i])) entries.line(piece, line);
            }
            entries.finish(p.endOfText, line);
        }
    }

    /**
     * {@code Ran out of memory in memory space vmem while allocating on stack for %kernel.18 = bf16[2048,4096]{...}
     * custom-call(...)} (XLA docs/errors/error_1000.md): no figures, but the instruction, kept as the
     * one buffer it lists so the join finds it in the dump. Whether the headline is of that form.
     */
    private static boolean onStack(Draft p, String head) {
        String key = "while allocating on stack for ";
        int i = head.indexOf(key);
        if (i < 0) return false;
        String label = head.substring(i + key.length()).strip();
        String[] parts = EntryReader.labelParts(label);
        if (parts[0] == null) return false;
        p.buffers.add(new ListedBuffer(p.start, 1, null, null, false, null, null, -1, -1,
                label.length() > 300 ? label.substring(0, 297) + "..." : label, parts[0], parts[1], "stack", null, null,
                -1, null, null));
        return true;
    }

    /** The paste's line number of character {@code offset} of p.headline + p.block joined by newlines. */
    private static int lineOfOffset(Draft p, String text, int offset) {
        int k = 0;
        for (int i = 0; i < offset; i++) if (text.charAt(i) == '\n') k++;
        return k == 0 ? p.start : p.blockLines.get(k - 1);
    }

    // ---- TPU: one allocation (docs/errors/error_1001.md, oom_debugging.md) ----

    static void allocation(Draft p) {
        String h = p.headline;
        if (!h.contains("] ::") && !h.contains("]::")) {
            String next = p.lines.peek();
            if (next != null && !next.isEmpty() && !Headlines.startsMessage(next) && (next.contains("tag") || next.contains("::"))) {
                p.consume();
                p.blockLines.add(p.lines.number());
                h = h + " " + next;
            }
        }
        p.requested = p.need(sizeAfter(h, "Allocation (size="), "a size after 'Allocation (size='");
        p.capacity = sizeAfter(h, "exceed memory (size=");
        int a = h.indexOf("#allocation");
        if (a >= 0) {
            long k = numberAt(h, a + 11);
            p.allocationIndex = k >= 0 && k <= Integer.MAX_VALUE ? (int) k : -1;
        }
        String shape = between(h, "shape = '", "'");
        String sp = between(h, "space=", ",");
        p.space = sp == null ? null : sp.strip();
        String hex = between(h, "size = 0x", ",");
        PrintedSize size = null;
        if (hex != null) {
            try {
                size = PrintedSize.exact(Long.parseLong(hex.strip(), 16));
            } catch (NumberFormatException e) {
                p.warnings.add(new OomWarning(p.start, "size = 0x" + hex + " is no hexadecimal number"));
            }
        }
        String tag = between(h, "tag = '", "'");
        String name = null;
        if (tag != null && tag.startsWith("output of ")) {
            name = tag.substring(10);
            int at = name.indexOf('@');
            if (at >= 0) name = name.substring(0, at);
        }
        int tail = h.lastIndexOf(":: ");
        if (name == null && tail >= 0 && tail > h.indexOf(']')) {
            String t = h.substring(tail + 3).strip();
            if (!t.isEmpty() && !t.startsWith("<")) name = t.split("\\s")[0];
        }
        if (a < 0) p.warnings.add(new OomWarning(p.start, "message cut off: expected '#allocationK [...]' after 'would exceed memory'"));
        p.buffers.add(new ListedBuffer(p.start, 1, size != null ? size : p.requested, shape, false, null, null, -1, -1, tag, name,
                null, null, null, null, p.allocationIndex, null, null));
    }
}
