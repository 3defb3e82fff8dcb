package bufq.advise;

import bufq.model.HloValue;

import java.util.List;

/**
 * One thing {@code advise} suggests: what a rule saw, the values it saw it in, and the what-if that
 * measures it. Immutable.
 *
 * @param rule    the rule's name
 * @param finding one line saying what was seen and what to do
 * @param edit    the {@code whatif} edits that model the change (null when the bytes are measured
 *                otherwise, as fragmentation's are)
 * @param shown   the edit as printed: the same text, with a long id list shortened
 * @param values  the evidence, largest first
 * @param bytes   bytes at stake when {@code edit} is null; else ignored (the what-if measures them)
 */
public record Advice(String rule, String finding, String edit, String shown, List<HloValue> values, long bytes) {
    public Advice {
        values = List.copyOf(values);
    }
}
