package bufq.analysis.advise;

import bufq.model.HloValue;

import java.util.List;

/**
 * One thing {@code advise} suggests: what a rule saw, the values it saw it in, and the what-if that
 * measures it. Immutable.
 *
 * @param rule    the rule's name
 * @param finding one line saying what was seen and what to do
 * @param edit    the {@code whatif} edits that model the change, in full (the report prints them as
 *                they are, so a pasted line reproduces the saving); null when the bytes are not a
 *                peak saving but measured otherwise, as the packing loss is
 * @param values  the evidence, largest first
 * @param bytes   bytes at stake when {@code edit} is null; else ignored (the what-if measures them)
 */
public record Advice(String rule, String finding, String edit, List<HloValue> values, long bytes) {
    public Advice {
        values = List.copyOf(values);
    }
}
