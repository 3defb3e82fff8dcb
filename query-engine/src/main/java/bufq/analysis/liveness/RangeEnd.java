package bufq.analysis.liveness;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloPosition;
import bufq.model.HloUse;
import bufq.model.HloValue;
import java.util.List;
import java.util.Locale;

/**
 * Why a value's live range ends where it ends, told from the dump's own uses, positions, schedule
 * and allocation flags, following XLA's {@code HloLiveRange}: a range ends at the value's last use;
 * an output or an entry parameter that is not donated lives to the end of the schedule; a value at
 * the root of a called computation (a loop body's result) lives until that computation ends; a
 * while loop's initial value ends where the loop's parameter takes over its bytes.
 *
 * @param reason      which rule ends it
 * @param end         last step of the live range (inclusive), -1 without one
 * @param use         the use that ends it ({@link Reason#LAST_USE}), the loop it feeds
 *                    ({@link Reason#LOOP_INIT}), else null
 * @param lastUse     step of its last use inside the schedule, or -1
 * @param position    the position that holds it at its end: a computation's root ({@link Reason#CARRY}), an
 *                    alias ({@link Reason#ALIAS}), the parameter taking it over ({@link Reason#LOOP_INIT}); else null
 * @param detail      for a person, naming instructions and steps: short clauses joined by {@code "; "}
 */
public record RangeEnd(Reason reason, int end, HloUse use, int lastUse, HloPosition position, String detail) {

    /** The rules, in the order they are tried. */
    public enum Reason {
        /** No live range in the dump (unsequenced computations, dumps without live ranges). */
        NO_RANGE,
        /** An entry parameter that is not donated: XLA keeps it to the end of the program. */
        UNDONATED_PARAMETER,
        /** Live at the last step: an output of the program. */
        LIVE_OUT,
        /** Ends at the step of its last use. */
        LAST_USE,
        /** Handed to a while loop or call as its input; the called computation's parameter takes its bytes over. */
        LOOP_INIT,
        /** At the root of a called computation (a loop body's result, a branch's): held until it ends. */
        CARRY,
        /** Still held at its last step through an alias (a get-tuple-element or bitcast position). */
        ALIAS,
        /** A parameter of a called computation (loop condition or body, branch): held for its span. */
        LOOP_PARAMETER,
        /** The dump lists no uses. */
        NO_USES,
        /** None of the rules explains the end. */
        UNEXPLAINED;

        /** Lower-case name as queries and tables show it ({@code last_use}). */
        public String word() { return name().toLowerCase(Locale.ROOT); }
    }

    /** Classifies {@code v} in {@code m}. */
    public static RangeEnd of(HloModule m, HloValue v) {
        int lastUse = UseSchedule.lastUse(m, v);
        if (!v.hasRange()) return new RangeEnd(Reason.NO_RANGE, -1, null, lastUse, null, "no live range in the dump");
        int end = v.rangeEnd(), max = m.info().maxTime();
        BufferAllocation alloc = m.allocation(v.allocation());
        HloInstruction def = m.instruction(v.name());
        boolean parameterOpcode = def != null && "parameter".equals(def.opcode());
        boolean entryParameter = parameterOpcode && alloc != null && alloc.isParameter();
        String used = lastUse < 0 ? "it has no use in the schedule"
                : "its last use is at step " + lastUse + " (" + at(m, lastUse) + ")";
        if (max >= 0 && end >= max) {
            if (entryParameter && !alloc.maybeLiveOut()) {
                return new RangeEnd(Reason.UNDONATED_PARAMETER, end, null, lastUse, null,
                        "entry parameter " + alloc.parameter() + ", not donated; XLA keeps it live to the end (step " + end
                                + "); " + used + "; donating it would free its bytes after "
                                + (lastUse < 0 ? "its birth" : "step " + lastUse));
            }
            return new RangeEnd(Reason.LIVE_OUT, end, null, lastUse, null,
                    "an output of the program; live to the end (step " + end + ")"
                            + (alloc != null ? "; in allocation " + alloc.index() + " (" + alloc.kind() + ")" : ""));
        }
        HloUse last = null;
        for (HloUse u : v.uses()) {
            int t = m.timeOf(u.user());
            if (t == end && last == null) last = u;
        }
        if (last != null) {
            String donated = entryParameter && alloc.maybeLiveOut()
                    ? "; a donated parameter (" + alloc.parameter() + "): its bytes are free after that" : "";
            return new RangeEnd(Reason.LAST_USE, end, last, lastUse, null,
                    "last read by " + last.user() + " (" + opcode(m, last.user()) + ", operand " + last.operand()
                            + ("{}".equals(last.index()) ? "" : " at " + last.index()) + ") at step " + end + donated);
        }
        for (HloUse u : v.uses()) {
            int t = m.timeOf(u.user());
            String op = opcode(m, u.user());
            // In module-scoped live ranges XLA ends a call's or loop's input where the called
            // computation begins; a call defines no value, so the dump may not print its opcode.
            if (t > end && ("while".equals(op) || "conditional".equals(op) || "call".equals(op) || "?".equals(op))) {
                HloPosition takeover = positionAt(m, v, end);
                return new RangeEnd(Reason.LOOP_INIT, end, u, lastUse, takeover,
                        "handed to " + u.user() + " (" + op + ", step " + t + ") as its input; XLA ends it at step " + end + " ("
                                + at(m, end) + "), where the called computation begins"
                                + (takeover == null ? "" : "; its parameter " + takeover + " takes the bytes over"));
            }
        }
        for (HloPosition p : v.positions()) {
            int t = m.timeOf(p.instruction());
            if (t >= 0 && t + 1 == end && m.users(p.instruction()).isEmpty()) {
                return new RangeEnd(Reason.CARRY, end, null, lastUse, p,
                        (p.instruction().equals(v.name()) ? "" : "held as " + p + "; ") + carried(m, t)
                                + " until that computation ends at step " + end + " (" + at(m, end) + ")");
            }
        }
        HloPosition alias = positionAt(m, v, end);
        if (alias != null && !alias.instruction().equals(v.name())) {
            return new RangeEnd(Reason.ALIAS, end, null, lastUse, alias,
                    "still held at step " + end + " as " + alias + "; an alias of it (a get-tuple-element or bitcast); " + used);
        }
        if (parameterOpcode && !entryParameter) {
            return new RangeEnd(Reason.LOOP_PARAMETER, end, null, lastUse, null,
                    "a parameter of a called computation (loop condition or body, branch); held for the loop until step "
                            + end + " (" + at(m, end) + "); " + used);
        }
        if (v.uses().isEmpty()) {
            return new RangeEnd(Reason.NO_USES, end, null, lastUse, null,
                    "the dump lists no uses; it ends at step " + end + " (" + at(m, end) + ")"
                            + (end == v.rangeStart() ? ", the step it is born" : ""));
        }
        return new RangeEnd(Reason.UNEXPLAINED, end, null, lastUse, null,
                used + " but its range ends at step " + end + " (" + at(m, end) + "); the dump does not say why");
    }

    /** The detail's clauses, one short statement each. */
    public List<String> clauses() { return List.of(detail.split("; ")); }

    /** A position of {@code v} whose instruction runs at step {@code t}, or null. */
    private static HloPosition positionAt(HloModule m, HloValue v, int t) {
        for (HloPosition p : v.positions()) if (m.timeOf(p.instruction()) == t) return p;
        return null;
    }

    /** Steps searched after a called computation's root for the while or conditional that runs it. */
    static final int CALLER_SEARCH = 4096;

    /**
     * What holds the root of a called computation sequenced at step {@code t}: its caller, the first
     * while or conditional sequenced after it (a module-scoped schedule puts a callee's instructions
     * just before its caller). A conditional's branch is not a loop.
     */
    private static String carried(HloModule m, int t) {
        List<String> seq = m.sequence();
        for (int s = t + 1; s < seq.size() && s <= t + CALLER_SEARCH; s++) {
            String op = opcode(m, seq.get(s));
            if ("conditional".equals(op)) return "the result of a branch of " + seq.get(s) + " (conditional, step " + s
                    + "); XLA holds it for the conditional";
            if ("while".equals(op)) return "the result of the body or condition of " + seq.get(s) + " (while, step " + s
                    + "); XLA holds it for the loop";
        }
        return "the result of a called computation (loop body or condition, branch); XLA holds it for its caller";
    }

    private static String at(HloModule m, int t) {
        return t >= 0 && t < m.sequence().size() ? m.sequence().get(t) : "end of program";
    }

    private static String opcode(HloModule m, String instruction) {
        HloInstruction i = m.instruction(instruction);
        return i == null || i.opcode() == null ? "?" : i.opcode();
    }
}
