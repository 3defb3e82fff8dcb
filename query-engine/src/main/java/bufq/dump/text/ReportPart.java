package bufq.dump.text;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A memory usage report, either style:
 * <pre>
 * 'Total bytes used: ' N ' (' HUMAN ')'            then 'Allocations sorted by size:' rows
 *     CUM '; ' REST '; allocation ' I ': size ' HUMAN ...   and the same allocation lines again below
 * 'Memory Space: ' NAME ' (color=' C ')'            per-colour style
 * 'Total bytes: ' N ' (' HUMAN ')'
 * </pre>
 * The per-allocation tables ({@code cumulative_size; size; offset; ...}) are not kept: the dump's
 * own allocation section says the same exactly.
 */
public final class ReportPart extends RegionParse {
    Long totalBytes;
    public final TreeMap<Integer, Long> colorTotals = new TreeMap<>();
    /** Each colour's name as the report gives it ({@code vmem}, {@code cmem}). */
    public final TreeMap<Integer, String> spaceNames = new TreeMap<>();
    /** Allocations named by the report, by index (sizes rounded unless in plain bytes). */
    public final Map<Integer, AllocationLine> allocations = new LinkedHashMap<>();

    private final Interner in;
    private int color = -1;

    private ReportPart(Interner in) { this.in = in; }

    public static ReportPart parse(String text, int from, int to, Interner in) {
        ReportPart p = new ReportPart(in);
        p.read(new Lines(text, from, to, 1, in.bytesOf(text), in.bytesOffset()));
        return p;
    }

    /** True when {@code text} starts like a memory usage report. */
    public static boolean looksLikeReport(String text) {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) i++;
        if (text.startsWith("Memory Space:", i)) return true;
        if (!text.startsWith("Total bytes used:", i)) return false;
        int nl = text.indexOf('\n', i);
        int j = nl < 0 ? text.length() : nl;
        while (j < text.length() && Character.isWhitespace(text.charAt(j))) j++;
        return text.startsWith("Allocations sorted by size", j);
    }

    private void line(Lines ls) {
        if (ls.charAt(0) == ' ') {
            // Table rows, most of the file: only the old style's rows name an allocation, as their
            // third field ('  8B( 67%);  4B; allocation 0: ...'); the rest of a row (a shapes list in
            // the newer style, a hundred characters or more) is not read.
            int first = ls.indexOf(';', ls.start);
            int a = first < 0 ? -1 : ls.indexOf(';', first + 1);
            if (a >= 0 && ls.text.startsWith("; allocation ", a)) allocation(ls.text.substring(a + 2, ls.end));
            return;
        }
        if (ls.isBlank()) return;
        String line = ls.line();
        if (line.startsWith("Total bytes used:")) {
            totalBytes = AllocationPart.total(line);
        } else if (line.startsWith("Memory Space:")) {
            int c = line.lastIndexOf("(color=");
            if (c < 0) throw new Cursor.Bad("expected '(color=N)' after the memory space name");
            Cursor cur = new Cursor(line, c + "(color=".length(), line.length());
            color = cur.intNumber();
            cur.expect(")");
            String name = line.substring("Memory Space:".length(), c).trim();
            if (!name.isEmpty()) spaceNames.putIfAbsent(color, name);
        } else if (line.startsWith("Total bytes:")) {
            Cursor cur = new Cursor(line, "Total bytes:".length(), line.length());
            while (cur.peek() == ' ') cur.pos++;
            long n = cur.number();
            if (color < 0) throw new Cursor.Bad("expected 'Memory Space:' before 'Total bytes:'");
            colorBytes.add(Limits.bytes(n, "total"), "the total of memory space " + color);
            colorTotals.merge(color, n, Math::addExact);
        } else if (line.startsWith("allocation ")) {
            allocation(line);
        } else {
            int a = line.indexOf("; allocation ");
            if (a >= 0) allocation(line.substring(a + 2));
        }
    }

    private void read(Lines ls) {
        readLines(ls, this::line);
    }

    // Sizes read so far, bounded as in the allocation section (Limits).
    private final Limits.Sum colorBytes = new Limits.Sum();
    private final Limits.Sum allocationBytes = new Limits.Sum();

    private void allocation(String line) {
        AllocationLine a = AllocationLine.parse(line, true, in);
        if (allocations.containsKey(a.index)) return;
        allocationBytes.add(Limits.bytes(a.size, "size"), "allocation " + a.index + "'s size");
        allocations.put(a.index, a);
    }

    /** The report's grand total: {@code Total bytes used}, else the sum over colours, else null. */
    public Long total() {
        if (totalBytes != null) return totalBytes;
        if (colorTotals.isEmpty()) return null;
        long s = 0;
        for (long v : colorTotals.values()) s = Math.addExact(s, v);
        return s;
    }
}
