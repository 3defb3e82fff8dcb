package bufq.dump.text;

import bufq.dump.text.Lines.Literal;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.PeakClaim;
import bufq.model.StackTraceNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The {@code HloLiveRange (max T):} section:
 * <pre>
 * 'HloLiveRange (max ' T '):'
 * '  InstructionSequence:'   ('    ' TIME ':' NAME)*
 * '  BufferLiveRange:'       ('    ' NAME '{' IDX '}:' START '-' END)*
 * '  Live ranges at ' P ' (peak):'
 *                            ('    ' KEY ': ' N ' bytes' [' (cumulative: ' M ' bytes)'])*
 * '  Stack trace breakdown for peak usage: ' N ' bytes'   (numbers may be grouped by spaces)
 *                            tree lines, indented by '├── ', '└── ', '│   ', '    '
 * </pre>
 */
public final class LiveRangePart extends RegionParse {
    public int maxTime = -1;
    public final ArrayList<String> sequence = new ArrayList<>();
    /** The symbols of the sequence's names, in step order (see {@link Interner#symbol}). */
    public int[] sequenceSymbols = new int[16];
    /**
     * Ranges by key ({@code name{idx}}); lines are found again only for the rare warning (see
     * {@link #linesOf}). Whole-value keys ({@code name{}}, most of them) are stored by bare name so
     * the join can look them up with the value's interned name, without building a key string.
     */
    final Map<String, LiveRange> ranges;
    /**
     * Whole-value ranges by the name's symbol in the module's {@link Interner}, packed as
     * {@code start << 32 | end}, {@link #NO_RANGE} where none: the join with a million values is an
     * array index each, not a lookup by name.
     */
    private long[] wholeBySymbol = new long[0];
    /** The symbols of the whole-value ranges read, and their names, in line order. */
    private int[] wholeSymbols = new int[16];
    private final List<String> wholeNames = new ArrayList<>();
    static final long NO_RANGE = -1;
    public PeakClaim peak;
    public long stackBytes = -1;
    public StackTraceNode stack;

    private final Interner in;
    private final Cursor cursor = new Cursor("");
    private int mode; // 1 sequence, 2 ranges, 3 peak, 4 stack
    private int peakTime;
    private long headerLine = 1;
    private final List<PeakClaim.Entry> peakEntries = new ArrayList<>();
    private boolean cumulative;
    private final List<Object[]> stackLines = new ArrayList<>(); // {depth, label, percent, total, current, remaining}

    private LiveRangePart(Interner in, int chars) {
        this.in = in;
        this.ranges = new HashMap<>();
        this.chars = chars;
    }

    /** Characters of the section's text: no more sequence lines than a seventh of them ('    0:x\n'). */
    private final int chars;

    /** Lines of the first text when the section came in two. */
    public long headLines;

    public static LiveRangePart parse(String text, int from, int to, Interner in) {
        LiveRangePart p = new LiveRangePart(in, to - from);
        p.readLines(new Lines(text, from, to, 1, in.bytesOf(text), in.bytesOffset()), p::line);
        p.finish();
        return p;
    }

    /** The section in two texts, {@code tail} going on where {@code head} stops (after a newline). */
    public static LiveRangePart parse(String head, String tail, Interner in) {
        LiveRangePart p = new LiveRangePart(in, head.length());
        p.readLines(new Lines(head, 0, head.length(), 1, in.bytesOf(head), in.bytesOffset()), p::line);
        p.headLines = p.lines;
        p.readLines(new Lines(tail, 0, tail.length(), p.lines + 1), p::line);
        p.finish();
        return p;
    }

    private static final Literal INDENT = Literal.of("    ");

    private void line(Lines ls) {
        // Most lines are sequence and range entries: read them in place.
        if ((mode == 1 || mode == 2) && ls.startsWith(INDENT) && ls.charAt(4) > ' ') {
            if (mode == 1) sequenceLine(ls);
            else rangeLine(ls);
            return;
        }
        if (ls.isBlank()) return;
        String line = ls.line();
        if (line.startsWith("HloLiveRange (max ")) {
            Cursor c = new Cursor(line, "HloLiveRange (max ".length(), line.length());
            maxTime = c.intNumber();
            // The sequence has T steps: sized once instead of grown and copied twenty times at a
            // million steps (a header claiming more than the text can hold sizes nothing).
            int steps = Math.min(maxTime, Math.min(Limits.MAX_STEPS, chars / 7));
            if (sequence.isEmpty() && steps > sequenceSymbols.length) {
                sequence.ensureCapacity(steps);
                sequenceSymbols = Arrays.copyOf(sequenceSymbols, steps);
            }
            c.expect("):");
            headerLine = ls.number;
        } else if (line.equals("  InstructionSequence:")) {
            mode = 1;
        } else if (line.equals("  BufferLiveRange:")) {
            mode = 2;
        } else if (line.startsWith("  Live ranges at ")) {
            Cursor c = new Cursor(line, "  Live ranges at ".length(), line.length());
            peakTime = c.intNumber();
            c.expect(" (peak):");
            mode = 3;
            peak = new PeakClaim(peakTime, List.of(), false);
        } else if (line.startsWith("  Stack trace breakdown for peak usage:")) {
            Cursor c = new Cursor(line, "  Stack trace breakdown for peak usage:".length(), line.length());
            stackBytes = bytes(c);
            mode = 4;
        } else if (line.startsWith("    ")) {
            switch (mode) {
                case 1 -> sequenceLine(ls);
                case 2 -> rangeLine(ls);
                case 3 -> peakLine(line);
                case 4 -> stackLine(line);
                default -> throw new Cursor.Bad("expected a section header before this line");
            }
        } else {
            throw new Cursor.Bad("expected a live-range section line, found '" + AllocationPart.clip(line) + "'");
        }
    }

    private void finish() {
        if (peak != null) peak = new PeakClaim(peakTime, peakEntries, cumulative);
        // XLA always prints the peak section; a section that stops before it was cut off.
        if (truncatedAt == 0 && maxTime >= 0 && peak == null && lines > 0) truncatedAt = lines;
        checkMaxTime();
        stack = buildTree();
    }

    /** Number of BufferLiveRange entries read. */
    public int rangeCount() { return ranges.size() + wholeNames.size(); }

    /**
     * The range of a value, by its name, the name's symbol (in the interner both were read with) and
     * canonical index, packed by {@link HloValue#packRange}; {@link HloValue#NO_RANGE} when it has none.
     */
    public long rangeOf(String name, int symbol, String index) {
        if (!"{}".equals(index)) {
            LiveRange r = ranges.get(name + index);
            return r == null ? HloValue.NO_RANGE : HloValue.packRange(r.start(), r.end());
        }
        long packed = symbol < wholeBySymbol.length ? wholeBySymbol[symbol] : NO_RANGE;
        return packed == NO_RANGE ? HloValue.NO_RANGE : packed;
    }

    /** All keys ({@code name{idx}}), for the rare unjoined-range warning. */
    public Set<String> keys() {
        Set<String> out = new HashSet<>(ranges.keySet());
        for (String n : wholeNames) out.add(n + "{}");
        return out;
    }

    /** Sets the whole-value range of a name (a repeated name's later line wins, as a map's put would). */
    private void putWhole(int symbol, String name, long packed) {
        if (symbol >= wholeBySymbol.length) {
            int n = Math.max(symbol + 1, Math.max(1024, wholeBySymbol.length * 2));
            int old = wholeBySymbol.length;
            wholeBySymbol = Arrays.copyOf(wholeBySymbol, n);
            Arrays.fill(wholeBySymbol, old, n, NO_RANGE);
        }
        if (wholeBySymbol[symbol] == NO_RANGE) {
            int k = wholeNames.size();
            if (k == wholeSymbols.length) wholeSymbols = Arrays.copyOf(wholeSymbols, k * 2);
            wholeSymbols[k] = symbol;
            wholeNames.add(name);
        }
        wholeBySymbol[symbol] = packed;
    }

    /** Relative lines of the BufferLiveRange entries named by {@code keys}, in line order. */
    public static TreeMap<Long, String> linesOf(Set<String> keys, String text) {
        TreeMap<Long, String> out = new TreeMap<>();
        Lines ls = new Lines(text, 0, text.length(), 1);
        boolean inRanges = false;
        while (ls.next() && out.size() < keys.size()) {
            if (ls.startsWith("  BufferLiveRange:")) { inRanges = true; continue; }
            if (!inRanges) continue;
            if (!ls.startsWith("    ")) break;
            String line = ls.line();
            int colon = line.lastIndexOf(':');
            if (colon < 5) continue;
            String key = line.substring(4, colon);
            if (!key.endsWith("}")) key = key + "{}";
            if (keys.contains(key)) out.put(ls.number, key);
        }
        return out;
    }

    /**
     * T is the sequence length in every dump seen; a T far beyond the sequence and the ranges would
     * make per-step tables huge, so it is warned about and cut down.
     */
    private void checkMaxTime() {
        if (maxTime < 0) return;
        if (maxTime != sequence.size() && truncatedAt == 0) {
            warn(headerLine, "HloLiveRange (max " + maxTime + ") but the InstructionSequence has " + sequence.size() + " entries");
        }
        int bound = sequence.size();
        for (LiveRange r : ranges.values()) bound = Math.max(bound, r.end());
        for (int k = 0; k < wholeNames.size(); k++) bound = Math.max(bound, (int) wholeBySymbol[wholeSymbols[k]]);
        if (maxTime > bound) maxTime = bound;
    }

    /** The last step a range may reach: T, the sequence's length (or the header's T, bounded, without one). */
    private int lastStep() {
        if (!sequence.isEmpty()) return sequence.size();
        return maxTime < 0 ? Limits.MAX_STEPS : Math.min(maxTime, Limits.MAX_STEPS);
    }

    // '    ' TIME ':' NAME
    private void sequenceLine(Lines ls) {
        Cursor c = cursor.reset(ls, 4);
        int t = c.intNumber();
        c.expect(':');
        if (t != sequence.size()) throw c.bad("expected time " + sequence.size() + " in the sequence");
        if (t == sequenceSymbols.length) sequenceSymbols = Arrays.copyOf(sequenceSymbols, t * 2);
        sequenceSymbols[t] = in.symbol(c.s, c.pos, c.end);
        sequence.add(in.lastName());
    }

    // '    ' NAME '{' IDX '}:' START '-' END
    private void rangeLine(Lines ls) {
        String t = ls.text;
        int colon = ls.lastIndexOf(':');
        if (colon < ls.start + 5) throw new Cursor.Bad("expected 'name{index}:start-end'");
        Cursor c = cursor.reset(ls, colon + 1, ls.end);
        int s = c.intNumber();
        c.expect('-');
        int e = c.intNumber();
        if (!c.atEnd()) throw c.bad("expected end of line");
        // Kept as printed (the 'inverted-range' check reports it), but said at once.
        if (s > e) warn(ls.number, "live range " + s + "-" + e + " starts after it ends");
        // Ranges end at T at the latest; one far past it would make every per-step table huge.
        int last = lastStep();
        if (e > last) {
            if (s > last) throw new Cursor.Bad("live range " + s + "-" + e + " starts past the last step " + last);
            warn(ls.number, "live range ends at " + e + ", past the last step " + last + "; cut there");
            e = last;
        }
        int from = ls.start + 4;
        long packed = ((long) s << 32) | (e & 0xffffffffL);
        // Whole-value keys by the interned name (shared with the value); indexed keys die with this part.
        char close = ls.charAt(colon - 1 - ls.start);
        if (close == '}' && ls.charAt(colon - 2 - ls.start) == '{') wholeRange(t, from, colon - 2, s, packed);
        else if (close != '}') wholeRange(t, from, colon, s, packed);
        else ranges.put(t.substring(from, colon), new LiveRange(s, e));
    }

    /**
     * The range of the value named {@code t[from, to)}. Nine values in ten are defined by the
     * instruction of their start step and named after it (89% of the corpus's ranges, 91% of a
     * million-value module's): that step's name, read a moment ago, is compared first. Its symbol
     * then costs no lookup in the module's table, whose million names miss the cache at every probe.
     */
    private void wholeRange(String t, int from, int to, int start, long packed) {
        int len = to - from;
        if (start < sequence.size()) {
            String defining = sequence.get(start);
            if (defining.length() == len && defining.regionMatches(0, t, from, len)) {
                putWhole(sequenceSymbols[start], defining, packed);
                return;
            }
        }
        putWhole(in.symbol(t, from, to), in.lastName(), packed);
    }

    // '    ' KEY ': ' N ' bytes' [' (cumulative: ' M ' bytes)']
    private void peakLine(String line) {
        int sep = line.lastIndexOf(": ", line.indexOf(" bytes") < 0 ? line.length() : line.indexOf(" bytes"));
        if (sep < 4) throw new Cursor.Bad("expected 'name: N bytes'");
        String key = line.substring(4, sep);
        Cursor c = new Cursor(line, sep + 2, line.length());
        long b = c.number();
        c.expect(" bytes");
        long cum = -1;
        if (c.match(" (cumulative: ")) {
            cum = c.number();
            c.expect(" bytes)");
            cumulative = true;
        }
        if (!c.atEnd()) throw c.bad("expected end of line");
        // Not interned: a key ('name{index}') is printed once, and no other text holds it.
        peakEntries.add(new PeakClaim.Entry(key, b, cum));
    }

    /** A byte count whose digits may be grouped by spaces ({@code 57 600 bytes}). */
    private static long bytes(Cursor c) {
        while (c.peek() == ' ') c.pos++;
        long v = 0;
        int digits = 0;
        while (!c.atEnd()) {
            char ch = c.peek();
            if (ch >= '0' && ch <= '9') {
                if (v > (Long.MAX_VALUE - 9) / 10 && v > (Long.MAX_VALUE - (ch - '0')) / 10) throw c.bad("number too large for 64 bits");
                v = v * 10 + (ch - '0');
                digits++;
                c.pos++;
            } else if (ch == ' ' && digits > 0 && c.pos + 1 < c.end && Character.isDigit(c.s.charAt(c.pos + 1))) {
                c.pos++;
            } else break;
        }
        if (digits == 0) throw c.bad("expected a byte count");
        c.expect(" bytes");
        return v;
    }

    // indentation of tree glyphs, then LABEL ' (' PCT '%, total: ' N ' bytes, current: ' N ' bytes, remaining: ' N ' bytes)'
    private void stackLine(String line) {
        int i = 4;
        while (i < line.length()) {
            char ch = line.charAt(i);
            if (ch == ' ' || ch == '│' || ch == '├' || ch == '└' || ch == '─') i++;
            else break;
        }
        int depth = i <= 4 ? 0 : (i - 6) / 4;
        int open = line.lastIndexOf(" (");
        while (open > i && (open + 2 >= line.length() || !Character.isDigit(line.charAt(open + 2)))) {
            open = line.lastIndexOf(" (", open - 1);
        }
        if (open <= i) throw new Cursor.Bad("expected 'label (P%, total: N bytes, ...)'");
        String label = line.substring(i, open);
        Cursor c = new Cursor(line, open + 2, line.length());
        int ps = c.pos;
        while (!c.atEnd() && (Character.isDigit(c.peek()) || c.peek() == '.')) c.pos++;
        double pct;
        try { pct = Double.parseDouble(line.substring(ps, c.pos)); } catch (NumberFormatException e) { throw c.bad("expected a percentage"); }
        c.expect("%, total:");
        long total = bytes(c);
        c.expect(", current:");
        long current = bytes(c);
        c.expect(", remaining:");
        long remaining = bytes(c);
        c.expect(")");
        stackLines.add(new Object[] {depth, in.name(label), pct, total, current, remaining});
    }

    private StackTraceNode buildTree() {
        if (stackLines.isEmpty()) return null;
        int[] at = {0};
        List<StackTraceNode> roots = children(at, 0);
        if (roots.size() == 1) return roots.get(0);
        long total = 0;
        for (StackTraceNode r : roots) total += r.total();
        return new StackTraceNode("(all)", 100.0, total, 0, 0, roots);
    }

    private List<StackTraceNode> children(int[] at, int depth) {
        List<StackTraceNode> out = new ArrayList<>();
        while (at[0] < stackLines.size()) {
            Object[] l = stackLines.get(at[0]);
            int d = (int) l[0];
            if (d < depth) break;
            at[0]++;
            List<StackTraceNode> kids = children(at, d + 1);
            out.add(new StackTraceNode((String) l[1], (double) l[2], (long) l[3], (long) l[4], (long) l[5], kids));
        }
        return out;
    }
}
