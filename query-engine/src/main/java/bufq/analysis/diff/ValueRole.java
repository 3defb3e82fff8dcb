package bufq.analysis.diff;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.HloModule;

import java.util.Locale;

/**
 * What a value is for, judged from the value itself rather than its allocation: a donated parameter's
 * buffer also holds temporaries and the updated weights, and those must not match as parameters.
 */
public enum ValueRole {
    PARAMETER, OUTPUT, TEMP, CONSTANT;

    public String word() { return name().toLowerCase(Locale.ROOT); }

    /**
     * Constant: a {@code constant} instruction or allocation. Parameter: an entry parameter
     * instruction (opcode {@code parameter} in a parameter allocation). Output: live out (range
     * ends at the last step). Without instruction or live-range details, the allocation's kind decides.
     */
    public static ValueRole of(HloModule m, HloValue v) {
        HloInstruction ins = m.instruction(v.name());
        String opcode = ins == null ? null : ins.opcode();
        BufferAllocation a = m.allocation(v.allocation());
        if ("constant".equals(opcode) || (a != null && a.constant())) return CONSTANT;
        if (a != null && a.isParameter()) {
            // Without the defining line, the value that starts the program is the parameter itself;
            // later ones reuse the (donated) buffer.
            boolean isParam = opcode != null ? "parameter".equals(opcode) : v.range() == null || v.range().start() == 0;
            if (isParam) return PARAMETER;
        }
        if (v.range() != null && m.info().maxTime() >= 0) return liveOut(m, v) ? OUTPUT : TEMP;
        if (a != null && !a.isParameter() && (a.isOutput() || a.maybeLiveOut())) return OUTPUT;
        return TEMP;
    }

    private static boolean liveOut(HloModule m, HloValue v) {
        return v.range() != null && m.info().maxTime() >= 0 && v.range().end() >= m.info().maxTime();
    }
}
