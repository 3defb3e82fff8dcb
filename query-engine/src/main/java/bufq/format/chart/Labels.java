package bufq.format.chart;

import java.util.Arrays;
import java.util.TreeSet;

/** One line of labels anchored at columns, never overlapping (one blank between labels). */
public final class Labels {
    private final char[] line;
    private final boolean[] used;

    public Labels(int width) {
        line = new char[width];
        Arrays.fill(line, ' ');
        used = new boolean[line.length];
    }

    /** Left-aligned at {@code col}, else right-aligned ending there; false when neither fits. */
    public boolean place(String s, int col) {
        return put(s, col) || put(s, col - s.length() + 1);
    }

    private boolean put(String s, int start) {
        int end = start + s.length();
        if (start < 0 || end > line.length) return false;
        for (int i = Math.max(0, start - 1); i < Math.min(line.length, end + 1); i++) if (used[i]) return false;
        for (int i = 0; i < s.length(); i++) {
            line[start + i] = s.charAt(i);
            used[start + i] = true;
        }
        return true;
    }

    public String text() { return new String(line); }

    /** First, quarter points, last and peak columns; with stretched steps, the first column of a step. */
    public static int[] marks(int cols, int peakC, int stretch) {
        TreeSet<Integer> s = new TreeSet<>();
        s.add(0);
        s.add(cols - 1);
        for (int q = 1; q < 4; q++) s.add(cols * q / 4 / stretch * stretch);
        s.add(peakC);
        return s.stream().mapToInt(Integer::intValue).toArray();
    }
}
