package bufq.bench;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code Live ranges at P (peak)} section and the stack-trace breakdown of a replicated module,
 * computed from the replicated ranges the way XLA does: live when {@code start <= t <= end}, P the
 * first step with the most bytes. New-style dumps count each value's logical size and print
 * {@code key: N bytes (cumulative: M bytes)} sorted by size then key; old-style dumps count and print
 * the defining instruction's whole shape ({@code name: N bytes}) for every live value.
 */
final class Peaks {
    record Entry(String key, String name, long bytes, String label) {}

    private final Replicator r;
    private final long[] bytes;      // per source range: what the peak list prints
    private final long[] eventBytes; // per source range: what XLA's peak search counts
    private final String[] labels;   // per source range: op_name, or null (then the renamed name)
    private int peak = -1;
    private List<Entry> entries;

    Peaks(Replicator r) {
        this.r = r;
        SourceDump src = r.src;
        Map<String, String> shapeOfKey = new HashMap<>();
        for (SourceDump.Alloc a : src.allocations) {
            for (SourceDump.ValueRef v : a.values()) {
                String rest = v.rest();
                shapeOfKey.put(v.key(), rest.substring(rest.indexOf("): ") + 3));
            }
        }
        int n = src.ranges.size();
        bytes = new long[n];
        eventBytes = new long[n];
        labels = new String[n];
        for (int i = 0; i < n; i++) {
            SourceDump.Range rg = src.ranges.get(i);
            String instr = src.instructionLine.get(rg.name());
            String shape = shapeOfKey.get(rg.key());
            if (shape == null) throw new IllegalStateException("live range " + rg.key() + " joins no value");
            // ComputePeakMemoryMoment sizes every value by its defining instruction's whole shape;
            // the new-style list prints the value's own shape, the old style the instruction's.
            eventBytes[i] = instr != null ? DtypeSizes.logicalBytes(DtypeSizes.leadingShape(instr)) : DtypeSizes.logicalBytes(shape);
            bytes[i] = src.cumulativePeak ? DtypeSizes.logicalBytes(shape) : eventBytes[i];
            labels[i] = instr == null ? null : opName(instr);
        }
    }

    static String opName(String instr) {
        int i = instr.indexOf("op_name=\"");
        if (i < 0) return null;
        StringBuilder b = new StringBuilder();
        for (int j = i + 9; j < instr.length(); j++) {
            char c = instr.charAt(j);
            if (c == '\\' && j + 1 < instr.length()) b.append(instr.charAt(++j));
            else if (c == '"') break;
            else b.append(c);
        }
        return b.toString();
    }

    /**
     * XLA's {@code HloLiveRange::ComputePeakMemoryMoment}: events (start, add) and (end+1, remove)
     * sorted so additions at t come before removals at t; the peak is the first t where the running
     * sum tops. So a value counts at t when {@code start <= t <= end + 1}.
     */
    int peakTime() {
        if (peak >= 0) return peak;
        long[] diff = new long[r.newMax + 3];
        List<SourceDump.Range> ranges = r.src.ranges;
        for (int k = 0; k < r.copies; k++) {
            for (int i = 0; i < ranges.size(); i++) {
                SourceDump.Range g = ranges.get(i);
                diff[r.start(g.start(), k)] += eventBytes[i];
                diff[r.end(g.end(), k) + 2] -= eventBytes[i];
            }
        }
        long acc = 0, best = 0;
        peak = 0;
        for (int t = 0; t <= r.newMax + 1; t++) {
            acc += diff[t];
            if (acc > best) { best = acc; peak = t; }
        }
        return peak;
    }

    List<Entry> entries() {
        if (entries != null) return entries;
        int p = peakTime();
        List<Entry> out = new ArrayList<>();
        List<SourceDump.Range> ranges = r.src.ranges;
        for (int k = 0; k < r.copies; k++) {
            for (int i = 0; i < ranges.size(); i++) {
                SourceDump.Range g = ranges.get(i);
                if (r.start(g.start(), k) <= p && p <= r.end(g.end(), k)) {
                    String name = r.rename(g.name(), k);
                    out.add(new Entry(name + g.index(), name, bytes[i], labels[i] == null ? name : labels[i]));
                }
            }
        }
        if (r.src.cumulativePeak) {
            out.sort(Comparator.comparingLong(Entry::bytes).reversed().thenComparing(Entry::name)
                    .thenComparing(e -> e.key().substring(e.name().length()), Peaks::compareIndex));
        }
        entries = out;
        return out;
    }

    /** ShapeIndex order: lexicographic over the integers ({@code {}} < {@code {0}} < {@code {0,1}} < {@code {1}}). */
    static int compareIndex(String a, String b) {
        String[] x = a.substring(1, a.length() - 1).split(","), y = b.substring(1, b.length() - 1).split(",");
        int nx = a.length() == 2 ? 0 : x.length, ny = b.length() == 2 ? 0 : y.length;
        for (int i = 0; i < Math.min(nx, ny); i++) {
            int c = Long.compare(Long.parseLong(x[i].trim()), Long.parseLong(y[i].trim()));
            if (c != 0) return c;
        }
        return Integer.compare(nx, ny);
    }

    long peakBytes() {
        long s = 0;
        for (Entry e : entries()) s += e.bytes();
        return s;
    }

    void write(Writer w) throws IOException {
        w.write("  Live ranges at " + peakTime() + " (peak):\n");
        long cum = 0;
        for (Entry e : entries()) {
            cum += e.bytes();
            w.write("    ");
            if (r.src.cumulativePeak) {
                w.write(e.key() + ": " + e.bytes() + " bytes (cumulative: " + cum + " bytes)\n");
            } else {
                w.write(e.name() + ": " + e.bytes() + " bytes\n");
            }
        }
        if (r.src.stackRoot != null) writeStackTrace(w, cum);
    }

    private void writeStackTrace(Writer w, long total) throws IOException {
        Map<String, Long> byLabel = new TreeMap<>();
        for (Entry e : entries()) byLabel.merge(e.label(), e.bytes(), Long::sum);
        List<Map.Entry<String, Long>> kids = new ArrayList<>(byLabel.entrySet());
        kids.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        w.write("  Stack trace breakdown for peak usage: " + DtypeSizes.grouped(total) + " bytes\n");
        w.write("    " + r.src.stackRoot + " (100.0%, total: " + DtypeSizes.grouped(total) + " bytes, current: 0 bytes, remaining: "
                + DtypeSizes.grouped(total) + " bytes)\n");
        long remaining = total;
        for (int i = 0; i < kids.size(); i++) {
            long t = kids.get(i).getValue();
            remaining -= t;
            double pct = total == 0 ? 0 : 100.0 * t / total;
            w.write("      " + (i == kids.size() - 1 ? "└── " : "├── ") + kids.get(i).getKey()
                    + String.format(Locale.ROOT, " (%.1f%%, total: ", pct) + DtypeSizes.grouped(t) + " bytes, current: "
                    + DtypeSizes.grouped(t) + " bytes, remaining: " + DtypeSizes.grouped(remaining) + " bytes)\n");
        }
    }

    /**
     * Differences between the source's own peak section and this computation with one copy; empty
     * when the generator's understanding of the format reproduces the real dump.
     */
    static List<String> selfCheck(SourceDump src) {
        List<String> problems = new ArrayList<>();
        Peaks p = new Replicator(src, 1).peaks();
        if (p.peakTime() != src.peakTime) problems.add("peak time " + p.peakTime() + " but the dump says " + src.peakTime);
        List<String> mine = new ArrayList<>();
        long cum = 0;
        for (Entry e : p.entries()) {
            cum += e.bytes();
            mine.add(src.cumulativePeak ? e.key() + ": " + e.bytes() + " bytes (cumulative: " + cum + " bytes)"
                    : e.name() + ": " + e.bytes() + " bytes");
        }
        List<String> theirs = new ArrayList<>();
        for (String l : src.peakLines) theirs.add(l.trim());
        if (!src.cumulativePeak) {   // old style: the order is XLA's internal one, compare as multisets
            mine.sort(null);
            theirs.sort(null);
        }
        if (!mine.equals(theirs)) {
            for (int i = 0; i < Math.max(mine.size(), theirs.size()) && problems.size() < 10; i++) {
                String a = i < mine.size() ? mine.get(i) : "(none)", b = i < theirs.size() ? theirs.get(i) : "(none)";
                if (!a.equals(b)) problems.add("peak line " + i + ": generated '" + a + "' dump '" + b + "'");
            }
        }
        long sum = 0;
        for (SourceDump.Alloc a : src.allocations) sum += a.size();
        if (sum != src.totalBytes) problems.add("allocation sizes sum to " + sum + " but Total bytes used is " + src.totalBytes);
        return problems;
    }
}
