package bufq.format;

import bufq.table.Output;

import java.util.List;

/**
 * One statement's result, as a {@link Formatter} renders it whole.
 *
 * @param outputs its tables and text, in order
 * @param heading the statement, shown above its result by formats for people ({@code set echo on});
 *                null for none
 * @param maxRows the rows a table keeps in formats for people ({@code set maxrows}); 0 for all
 */
public record Result(List<? extends Output> outputs, String heading, int maxRows) {
    public Result {
        outputs = List.copyOf(outputs);
    }

    /** {@code outputs} with no heading, every row kept. */
    public static Result of(List<? extends Output> outputs) { return new Result(outputs, null, 0); }
}
