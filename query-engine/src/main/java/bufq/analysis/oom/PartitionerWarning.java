package bufq.analysis.oom;

import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * XLA's SPMD partitioner giving up on a reshard ({@code spmd_partitioner.cc}): "[spmd] Involuntary
 * full rematerialization. The compiler was not able to go from sharding {A} to {B} without doing a
 * full rematerialization of the tensor for HLO operation: %x = SHAPE op(...), metadata={op_name=...}.
 * You probably want to enrich the sharding annotations ...". The tensor is made whole on every device:
 * the values that operation made in the optimized module are where those bytes went.
 *
 * @param instruction the operation's name before partitioning ({@code transpose.3}, without {@code %})
 * @param shape       its global shape as printed, or null
 * @param opName      its {@code op_name}, or null
 */
record PartitionerWarning(String from, String to, String instruction, String shape, String opName) {
    static final String KEY = "Involuntary full rematerialization";
    private static final Pattern OPERATION = Pattern.compile("HLO operation: %?([\\w.\\-]+) = (\\S+)");
    private static final Pattern OP_NAME = Pattern.compile("op_name=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** The warning on line {@code s}, or null when it is not one. */
    static PartitionerWarning parse(String s) {
        int k = s.indexOf(KEY);
        if (k < 0) return null;
        String from = braced(s, s.indexOf("from sharding ", k), "from sharding ".length());
        int toAt = from == null ? -1 : s.indexOf(" to ", s.indexOf(from, k) + from.length());
        String to = toAt < 0 ? null : braced(s, toAt, " to ".length());
        Matcher op = OPERATION.matcher(s);
        if (!op.find(k)) return null;
        Matcher name = OP_NAME.matcher(s);
        String opName = name.find(op.end()) ? name.group(1).replace("\\\"", "\"").replace("\\'", "'") : null;
        return new PartitionerWarning(from, to, op.group(1), op.group(2).replaceAll(",$", ""), opName);
    }

    /** The balanced brace group at {@code at + skip} of {@code s}, or null. */
    private static String braced(String s, int at, int skip) {
        if (at < 0 || at + skip >= s.length() || s.charAt(at + skip) != '{') return null;
        int depth = 0;
        for (int i = at + skip; i < s.length(); i++) {
            if (s.charAt(i) == '{') depth++;
            else if (s.charAt(i) == '}' && --depth == 0) return s.substring(at + skip, i + 1);
        }
        return null;
    }

    /**
     * What it says, in one line without the operation's operands and attributes; {@link #parse}
     * reads it back.
     */
    String says() {
        return "[spmd] " + KEY + (from == null ? "" : " from sharding " + from) + (to == null ? "" : " to " + to)
                + " of HLO operation: %" + instruction + " = " + (shape == null ? "?" : shape)
                + (opName == null ? "" : ", op_name=\"" + opName.replace("\"", "\\\"") + "\"");
    }

    /**
     * The values of {@code m} the operation made: those whose instruction carries its op_name (the
     * partitioner's copies keep it), else the one of its name.
     */
    List<HloValue> values(HloModule m) {
        List<HloValue> out = new ArrayList<>();
        for (HloValue v : m.values()) {
            HloInstruction i = m.instruction(v.name());
            boolean byName = v.name().equals(instruction);
            boolean byOp = opName != null && i != null && opName.equals(i.opName());
            if (byName || byOp) out.add(v);
        }
        return out;
    }

    /** Why the warning joins {@code m}, with its bytes at the peak; null when no value of {@code m} is the operation's. */
    String join(HloModule m) {
        List<HloValue> vs = values(m);
        if (vs.isEmpty()) return null;
        Liveness l = Liveness.of(m);
        long atPeak = 0;
        int n = 0;
        if (l.peakTime() >= 0) {
            for (HloValue v : LiveValues.at(m, l.peakTime())) {
                if (vs.contains(v)) {
                    atPeak += v.size();
                    n++;
                }
            }
        }
        return vs.size() + " value" + (vs.size() == 1 ? "" : "s") + " made by " + (opName != null ? "op_name " + opName : "%" + instruction)
                + (l.peakTime() < 0 ? "" : "; " + n + " live at the peak (step " + l.peakTime() + "), " + Units.human(atPeak)
                + " (" + atPeak + " B)");
    }
}
