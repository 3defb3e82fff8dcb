package bufq.bench;

import java.util.List;

/**
 * Fresh instruction names for replicas, XLA style: {@code base.N} becomes {@code base.<k*S+N>} and a
 * name without a numeric suffix becomes {@code name.<k*S+S-1>}. With {@code S} above every suffix in
 * the source the mapping is injective and replica 0 keeps the real names.
 */
final class ReplicaNames {
    private ReplicaNames() {}

    /** A power of ten at least two above the largest numeric suffix of any name in the source. */
    static long stride(SourceDump src) {
        long max = 0;
        for (SourceDump.Alloc a : src.allocations) {
            for (SourceDump.ValueRef v : a.values()) max = Math.max(max, suffix(v.name()));
        }
        for (String s : src.sequence) max = Math.max(max, suffix(s));
        for (String text : src.instructionLine.values()) {
            for (int i = text.indexOf('%'); i >= 0; i = text.indexOf('%', i + 1)) {
                int e = identEnd(text, i + 1);
                if (e > i + 1) max = Math.max(max, suffix(text.substring(i + 1, e)));
            }
        }
        for (List<String> b : src.blocks) {
            for (String l : b) {
                if (l.startsWith("  ")) {
                    String t = l.substring(2);
                    int cut = t.indexOf(',');
                    if (cut < 0) cut = t.indexOf(' ');
                    max = Math.max(max, suffix(cut < 0 ? t : t.substring(0, cut)));
                }
            }
        }
        long s = 10;
        while (s < max + 2) s *= 10;
        return s;
    }

    /** The numeric suffix after the last dot, or -1 (leading zeros do not count as numbers). */
    static long suffix(String name) {
        int dot = name.lastIndexOf('.');
        if (dot < 0 || dot == name.length() - 1) return -1;
        String d = name.substring(dot + 1);
        if (d.length() > 1 && d.charAt(0) == '0') return -1;
        if (d.length() > 12) return -1;
        for (int i = 0; i < d.length(); i++) if (!Character.isDigit(d.charAt(i))) return -1;
        return Long.parseLong(d);
    }

    static String rename(String name, int k, long stride) {
        if (k == 0) return name;
        long s = suffix(name);
        if (s < 0) return name + "." + (k * stride + stride - 1);
        return name.substring(0, name.lastIndexOf('.') + 1) + (k * stride + s);
    }

    static boolean identChar(char c) {
        return Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-';
    }

    static int identEnd(String s, int from) {
        int i = from;
        while (i < s.length() && identChar(s.charAt(i))) i++;
        while (i > from && s.charAt(i - 1) == '.') i--;   // "%x." at a sentence end is not part of the name
        return i;
    }

    /** Renames every {@code %name} reference in an instruction line. */
    static String renameReferences(String line, int k, long stride) {
        if (k == 0) return line;
        StringBuilder b = new StringBuilder(line.length() + 64);
        int last = 0;
        for (int i = line.indexOf('%'); i >= 0; i = line.indexOf('%', i + 1)) {
            int e = identEnd(line, i + 1);
            if (e == i + 1) continue;
            b.append(line, last, i + 1).append(rename(line.substring(i + 1, e), k, stride));
            last = e;
            i = e - 1;
        }
        return b.append(line, last, line.length()).toString();
    }
}
