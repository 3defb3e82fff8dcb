package bufq.analysis.oom;

import bufq.units.PrintedSize;
import bufq.units.Units;
import java.util.ArrayList;
import java.util.List;

import static bufq.analysis.oom.MessageText.numberAt;

/**
 * The buffers a GPU {@code Peak buffers:} list or a TPU {@code Largest program allocations} list
 * prints, one {@code Size:} line at a time: {@code Operator:}, {@code Shape:} (or {@code Entry
 * Parameter Subshape:}), {@code Unpadded size:}, {@code Extra memory due to padding:}, {@code XLA
 * label:} and {@code Allocation type:} fill the entry; a line of {@code =} ends it.
 */
final class EntryReader {
    private static final String[] KEYS = {"Size:", "Operator:", "Shape:", "Entry Parameter Subshape:", "Unpadded size:",
            "Extra memory due to padding:", "XLA label:", "XLA Label:", "Allocation type:"};

    private final List<ListedBuffer> out;
    private final List<OomWarning> warnings;
    private Entry open;
    private int pendingRank = -1;

    private static final class Entry {
        int line, rank = -1;
        PrintedSize size, unpadded, padding;
        String shape, opName, sourceFile, label, allocationType, last;
        int sourceLine = -1;
        long stackFrameId = -1;
        boolean parameter;
    }

    EntryReader(List<ListedBuffer> out, List<OomWarning> warnings) {
        this.out = out;
        this.warnings = warnings;
    }

    /**
     * Cuts a line a browser glued together ({@code ...Allocation type: HLO temp ===== 2\. Size: 2.62G})
     * before each {@code Size:} that starts an entry.
     */
    static List<String> splitGlued(String s) {
        List<String> parts = new ArrayList<>();
        int from = 0;
        int i = s.indexOf("Size:", 1);
        while (i > 0) {
            int cut = i;
            // back over "2\. " or "2. " to where the entry's number starts
            int j = i - 1;
            while (j >= 0 && (s.charAt(j) == ' ' || s.charAt(j) == '.' || s.charAt(j) == '\\')) j--;
            while (j >= 0 && Character.isDigit(s.charAt(j))) j--;
            cut = j + 1;
            if (cut > from && !s.substring(from, cut).isBlank()) {
                parts.add(s.substring(from, cut).strip());
                from = cut;
            }
            i = s.indexOf("Size:", i + 5);
        }
        parts.add(s.substring(from).strip());
        return parts;
    }

    void line(String s, int line) {
        if (s.isEmpty()) return;
        if (s.startsWith("=====")) {
            close();
            return;
        }
        if (s.startsWith("Buffer ") && s.endsWith(":")) {
            close();
            pendingRank = (int) numberAt(s, 7);
            return;
        }
        int sizeAt = s.indexOf("Size:");
        if (sizeAt >= 0 && !s.startsWith("Unpadded") && !s.contains("Extra memory")) {
            close();
            open = new Entry();
            open.line = line;
            open.rank = pendingRank;
            pendingRank = -1;
            long rank = numberAt(s, 0);
            if (rank >= 0 && sizeAt > 0) open.rank = (int) rank;
            open.size = Units.printedAt(s, sizeAt + 5, null);
            if (open.size == null) warnings.add(new OomWarning(line, "expected a size after 'Size:'"));
            open.last = "size";
            return;
        }
        if (open == null) return;
        if (s.startsWith("Operator:")) {
            String op = s.substring(9);
            open.opName = quoted(op, "op_name=\"");
            open.sourceFile = quoted(op, "source_file=\"");
            int sl = op.indexOf("source_line=");
            if (sl >= 0) open.sourceLine = (int) numberAt(op, sl + 12);
            int sf = op.indexOf("stack_frame_id=");
            if (sf >= 0) open.stackFrameId = numberAt(op, sf + 15);
            open.last = "operator";
        } else if (s.startsWith("Entry Parameter Subshape:")) {
            open.shape = s.substring(25).strip();
            open.parameter = true;
            open.last = "shape";
        } else if (s.startsWith("Shape:")) {
            open.shape = s.substring(6).strip();
            open.last = "shape";
        } else if (s.startsWith("Unpadded size:")) {
            open.unpadded = Units.printedAt(s, 14, null);
            open.last = "unpadded";
        } else if (s.startsWith("Extra memory due to padding:")) {
            open.padding = Units.printedAt(s, 28, null);
            open.last = "padding";
        } else if (s.startsWith("XLA label:") || s.startsWith("XLA Label:")) {
            open.label = s.substring(10).strip();
            open.last = "label";
        } else if (s.startsWith("Allocation type:")) {
            open.allocationType = cutAt(s.substring(16), "=====").strip();
            open.last = "type";
        } else if ("label".equals(open.last) && open.label != null && open.label.length() < 1 << 14) {
            open.label = open.label + " " + s;   // the rest of a wrapped label
        }
    }

    private static String cutAt(String s, String stop) {
        int i = s.indexOf(stop);
        return i < 0 ? s : s.substring(0, i);
    }

    private static String quoted(String s, String key) {
        int i = s.indexOf(key);
        if (i < 0) return null;
        int j = s.indexOf('"', i + key.length());
        return j < 0 ? s.substring(i + key.length()) : s.substring(i + key.length(), j);
    }

    private void close() {
        if (open == null) return;
        Entry e = open;
        open = null;
        String[] nameAndOpcode = labelParts(e.label);
        out.add(new ListedBuffer(e.line, e.rank, e.size, e.shape, e.parameter, e.opName, e.sourceFile, e.sourceLine,
                e.stackFrameId, e.label, nameAndOpcode[0], nameAndOpcode[1], e.allocationType, e.unpadded, e.padding,
                -1, null, null));
    }

    /** Ends the list; an entry the text stopped in is kept, with a warning that it was cut off. */
    void finish(boolean endOfText, int lastLine) {
        if (open != null && endOfText && (open.label == null || open.shape == null))
            warnings.add(new OomWarning(open.line, "entry cut off at line " + lastLine + ": the text ended inside it"));
        close();
    }

    /** Where the first blank outside brackets is, or the end. */
    private static int depthZeroSpace(String s) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[' || c == '{' || c == '(') depth++;
            else if (c == ']' || c == '}' || c == ')') depth--;
            else if (c == ' ' && depth <= 0) return i;
        }
        return s.length();
    }

    private static int indexOr(String s, char c) {
        int i = s.indexOf(c);
        return i < 0 ? Integer.MAX_VALUE : i;
    }

    /**
     * The instruction name and opcode of an {@code XLA label}: {@code %iota.2 = s32[..]{..} iota(), ...}
     * (older), {@code fusion.1265.remat3 = fusion(...), kind=...} (newer), or a GPU label's opcode
     * alone ({@code fusion}): then the name is null.
     */
    static String[] labelParts(String label) {
        if (label == null || label.isEmpty()) return new String[]{null, null};
        int eq = label.indexOf(" = ");
        if (eq < 0) {
            String word = label.split("[\\s(]", 2)[0];
            return new String[]{null, word.isEmpty() ? null : word};
        }
        String name = label.substring(0, eq).strip();
        if (name.startsWith("%")) name = name.substring(1);
        if (name.startsWith("ROOT ")) name = name.substring(5).strip();
        String rest = label.substring(eq + 3).strip();
        // older labels print the shape first: "f32[1,5]{1,0:T(1,128)} dynamic-slice(...)"; skip it
        int tokenEnd = depthZeroSpace(rest);
        String first = rest.substring(0, tokenEnd);
        if (first.startsWith("(") || (first.contains("[") && first.indexOf('[') < indexOr(first, '(')))
            rest = rest.substring(tokenEnd).strip();
        int paren = rest.indexOf('(');
        String opcode = paren > 0 ? rest.substring(0, paren).strip() : null;
        if (opcode != null && (opcode.isEmpty() || opcode.contains(" "))) opcode = null;
        return new String[]{name.isEmpty() ? null : name, opcode};
    }
}
