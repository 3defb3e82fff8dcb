package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.model.HloValue;

import java.util.List;
import java.util.function.Function;

/**
 * One thing {@code advise} suggests: what a rule saw, the values it saw it in, and the what-if edits
 * that measure it. The edits are the what-if engine's own objects, measured as built and printed once,
 * as people read them, by {@link bufq.analysis.whatif.ReadableEdits}. Immutable.
 *
 * @param rule    the rule's name
 * @param finding one line saying what was seen and what to do
 * @param edits   the {@code whatif} edits that model the change; empty when the bytes are not a peak
 *                saving but measured otherwise, as the packing loss is
 * @param values  the evidence, largest first
 * @param bytes   bytes at stake when {@code edits} is empty; else ignored (the what-if measures them)
 * @param jax     the JAX code that makes the change, as its rule writes it; null for the built-in
 *                rules' own (see {@link JaxCode})
 * @param effect  what the change does to the program's results
 */
public record Advice(String rule, String finding, List<Edit> edits, List<HloValue> values, long bytes, String jax, Effect effect) {
    /** What a change does to the program's results; the list ranks by it among the rows that save enough. */
    public enum Effect {
        /** Keeps every result: a rewrite, a remat, donation, sharding. */
        KEEPS,
        /** Keeps every result, an axis cut into a measured count of pieces: chunks, microbatches. */
        CUTS,
        /** Stores values in bf16 that were f32. */
        LOWERS_PRECISION,
        /** Gives one call fewer examples. */
        FEWER_EXAMPLES;

        /** Whether the program computes something else once the change is made. */
        public boolean changesResults() { return this == LOWERS_PRECISION || this == FEWER_EXAMPLES; }
    }

    public Advice {
        edits = List.copyOf(edits);
        values = List.copyOf(values);
    }

    /** A finding that keeps every result. */
    public Advice(String rule, String finding, List<Edit> edits, List<HloValue> values, long bytes, String jax) {
        this(rule, finding, edits, values, bytes, jax, Effect.KEEPS);
    }

    /** A finding whose JAX code is its rule's own. */
    public Advice(String rule, String finding, List<Edit> edits, List<HloValue> values, long bytes) {
        this(rule, finding, edits, values, bytes, null);
    }

    /** A finding measured by one edit. */
    public Advice(String rule, String finding, Edit edit, List<HloValue> values) {
        this(rule, finding, List.of(edit), values, 0);
    }

    /** Whether the what-if measures it (else {@link #bytes} are what its rule measured). */
    public boolean measured() { return !edits.isEmpty(); }

    /** The edits as one {@code whatif} argument, values selected by id: what is measured. */
    public String editText() { return edits.isEmpty() ? null : Edit.join(edits); }

    /**
     * A change of the allocation advise answers for ({@link Remedy}), measured elsewhere or here.
     *
     * @param figure what kind of figure {@code saves} is: "exact: whatif" (the peak recomputed under the
     *               edit), "upper bound: whatif" (the edit is the change's best case), "exact: fit" (the set
     *               re-run without the arrays)
     * @param jax    the change as the JAX code a user writes
     * @param edits  the what-if edits measured (empty for a change measured elsewhere)
     * @param statement the statement that reproduces a change measured elsewhere ({@code fit drop x}); null with edits
     * @param values the values it changes, largest first (the evidence)
     * @param effect what it does to the program's results
     * @param whatifSaves what the what-if of {@code edits} saves (what its statement reproduces): {@code saves}
     *               unless the figure is an estimate built on it
     */
    public record Change(String change, long saves, String figure, String jax, String finding, List<Edit> edits,
                         String statement, List<HloValue> values, Effect effect, long whatifSaves) {
        public Change {
            edits = List.copyOf(edits);
            values = List.copyOf(values);
        }

        /** A change whose figure is its what-if's. */
        public Change(String change, long saves, String figure, String jax, String finding, List<Edit> edits,
                      String statement, List<HloValue> values, Effect effect) {
            this(change, saves, figure, jax, finding, edits, statement, values, effect, saves);
        }

        /** A change measured elsewhere, reproduced by {@code statement}. */
        public Change(String change, long saves, String figure, String jax, String finding, String statement) {
            this(change, saves, figure, jax, finding, List.of(), statement, List.of(), Effect.KEEPS);
        }

        /** The statement that reproduces it, edits written by {@code written}. */
        public String shown(Function<List<Edit>, String> written) {
            return edits.isEmpty() ? statement : "whatif " + written.apply(edits);
        }
    }
}
