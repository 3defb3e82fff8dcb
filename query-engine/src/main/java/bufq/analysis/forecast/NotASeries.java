package bufq.analysis.forecast;

import bufq.table.Table;

/**
 * The loaded modules are no series (different programs, schedules of another structure, values
 * that do not pair or whose shapes do not follow one size): the message says which and why, and
 * {@link #details()} lists the values, so no number comes from a bad fit.
 */
public final class NotASeries extends Exception {
    private final transient Table details;

    NotASeries(String message, Table details) {
        super(message, null, false, false);
        this.details = details;
    }

    /** The values that did not pair or fit, and why; null when the message says it all. */
    public Table details() { return details; }
}
