package bufq.bench;

import java.io.IOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes one big module out of {@code copies} replicas of a real one: replica {@code k} gets fresh
 * names ({@code fusion.3} becomes {@code fusion.<k*S+3>}), ids, allocation and parameter numbers, and
 * its steps shifted by {@code k*L} so the schedule grows. Entry parameters (live from step 0) stay
 * live from 0 and live-out values (ending at max) stay live to the new max, as in a program with
 * {@code copies} times the layers; so values sharing an allocation keep their order in time.
 *
 * <p>Everything a reader checks is recomputed, not copied: {@code Total bytes used}, the peak step and
 * its list (cumulative or old style, as the source prints it), the stack-trace breakdown.
 */
final class Replicator {
    final SourceDump src;
    final int copies;
    private final long idStride;
    private final int allocStride;
    private final int paramStride;
    private final long nameStride;
    private final int steps;      // L: sequence length of one replica
    final int newMax;
    private final Map<Long, Integer> paramOfValue = new HashMap<>();
    private final Peaks peaks;

    Replicator(SourceDump src, int copies) {
        if (src.sequence.size() != src.maxTime) {
            throw new IllegalArgumentException("source schedule has " + src.sequence.size()
                    + " steps but max " + src.maxTime + "; cannot shift replicas");
        }
        this.src = src;
        this.copies = copies;
        long maxId = 0;
        int maxAlloc = 0, maxParam = -1;
        for (SourceDump.Alloc a : src.allocations) {
            maxAlloc = Math.max(maxAlloc, a.index());
            maxParam = Math.max(maxParam, a.parameter());
            for (SourceDump.ValueRef v : a.values()) {
                maxId = Math.max(maxId, v.id());
                if (a.parameter() >= 0) paramOfValue.put(v.id(), a.parameter());
            }
        }
        this.idStride = maxId + 1;
        this.allocStride = maxAlloc + 1;
        this.paramStride = maxParam + 1;
        this.steps = src.sequence.size();
        this.newMax = copies * steps;
        this.nameStride = ReplicaNames.stride(src);
        this.peaks = new Peaks(this);
    }

    int valuesPerCopy() {
        int n = 0;
        for (SourceDump.Alloc a : src.allocations) n += a.values().size();
        return n;
    }

    String rename(String name, int k) { return ReplicaNames.rename(name, k, nameStride); }

    int start(int s, int k) { return s == 0 ? 0 : k * steps + s; }
    int end(int e, int k) { return e == src.maxTime ? newMax : k * steps + e; }

    long totalBytes() { return Math.multiplyExact(src.totalBytes, (long) copies); }

    void writeAllocations(Writer w) throws IOException {
        w.write("BufferAssignment:\n");
        for (int k = 0; k < copies; k++) {
            for (SourceDump.Alloc a : src.allocations) {
                w.write("allocation ");
                w.write(Integer.toString(k * allocStride + a.index()));
                w.write(": size ");
                w.write(Long.toString(a.size()));
                if (a.parameter() >= 0) {
                    String p = ", parameter " + a.parameter();
                    w.write(a.flags().replaceFirst(java.util.regex.Pattern.quote(p) + "(?=,|$)",
                            ", parameter " + (k * paramStride + a.parameter())));
                } else {
                    w.write(a.flags());
                }
                w.write(":\n");
                for (SourceDump.ValueRef v : a.values()) {
                    w.write(" value: ");
                    writeRef(w, v, k);
                    w.write(v.rest());
                    w.write('\n');
                }
            }
        }
    }

    private void writeRef(Writer w, SourceDump.ValueRef v, int k) throws IOException {
        w.write('<');
        w.write(Long.toString(k * idStride + v.id()));
        w.write(' ');
        w.write(rename(v.name(), k));
        w.write(v.index());
        if (v.phi()) w.write(" (phi)");
        w.write(" @");
        w.write(v.color());
        w.write('>');
    }

    /** {@code Total bytes used} and the Used-values blocks. */
    void writeValues(Writer w) throws IOException {
        w.write("Total bytes used: " + totalBytes() + " (" + DtypeSizes.human(totalBytes()) + ")\n\nUsed values:\n");
        for (int k = 0; k < copies; k++) {
            for (List<String> block : src.blocks) writeBlock(w, block, k);
        }
    }

    private void writeBlock(Writer w, List<String> block, int k) throws IOException {
        SourceDump.ValueRef head = SourceDump.parseRef(block.get(0));
        writeRef(w, head, k);
        w.write(head.rest());
        w.write('\n');
        boolean uses = false;
        for (int i = 1; i < block.size(); i++) {
            String line = block.get(i);
            if (line.equals(" positions:")) { uses = false; w.write(line); }
            else if (line.equals(" uses:")) { uses = true; w.write(line); }
            else if (line.startsWith(" from instruction:")) {
                String text = ReplicaNames.renameReferences(line, k, nameStride);
                Integer p = paramOfValue.get(head.id());
                if (p != null && k > 0) {
                    text = text.replace(" parameter(" + p + ")", " parameter(" + (k * paramStride + p) + ")");
                }
                w.write(text);
            } else if (line.startsWith("  ") && !line.equals("  (none)")) {
                // "  name[ {idx}]" under positions, "  user, operand K[ {idx}]" under uses
                String t = line.substring(2);
                int cut = uses ? t.indexOf(',') : t.indexOf(' ');
                if (cut < 0) cut = t.length();
                w.write("  ");
                w.write(rename(t.substring(0, cut), k));
                w.write(t, cut, t.length() - cut);
            } else {
                w.write(line);
            }
            w.write('\n');
        }
    }

    /** HloLiveRange: schedule, BufferLiveRange, the recomputed peak and stack-trace breakdown. */
    void writeLiveRange(Writer w) throws IOException {
        w.write("HloLiveRange (max " + newMax + "):\n  InstructionSequence:\n");
        for (int k = 0; k < copies; k++) {
            for (int i = 0; i < steps; i++) {
                w.write("    ");
                w.write(Integer.toString(k * steps + i));
                w.write(':');
                w.write(rename(src.sequence.get(i), k));
                w.write('\n');
            }
        }
        w.write("  BufferLiveRange:\n");
        for (int k = 0; k < copies; k++) {
            for (SourceDump.Range r : src.ranges) {
                w.write("    ");
                w.write(rename(r.name(), k));
                w.write(r.index());
                w.write(':');
                w.write(Integer.toString(start(r.start(), k)));
                w.write('-');
                w.write(Integer.toString(end(r.end(), k)));
                w.write('\n');
            }
        }
        peaks.write(w);
    }

    /** The per-colour report: totals scaled, each allocation table repeated once per replica. */
    void writeReport(Writer w) throws IOException {
        List<String> lines = src.reportLines;
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i);
            if (line.startsWith("Total bytes: ")) {
                String n = line.substring(13);
                int sp = n.indexOf(' ');
                long t = Math.multiplyExact(Long.parseLong(sp < 0 ? n : n.substring(0, sp)), (long) copies);
                w.write("Total bytes: " + t + " (" + DtypeSizes.human(t) + ")\n");
                i++;
            } else if (line.startsWith("  cumulative_size;")) {
                int j = i;
                while (j < lines.size() && !lines.get(j).isEmpty()) j++;
                List<String> table = lines.subList(i, j);
                for (int k = 0; k < copies; k++) {
                    for (String t : table) { w.write(t); w.write('\n'); }
                    w.write('\n');
                }
                i = j + 1;
            } else {
                w.write(line);
                w.write('\n');
                i++;
            }
        }
    }

    Peaks peaks() { return peaks; }
}
