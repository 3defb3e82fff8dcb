package bufq.model;

/**
 * A part of a module read on first use could not be read: the read was cancelled (the thread was
 * interrupted), or a file changed or vanished since the module was loaded. The message is one line
 * naming the file. Nothing is kept: the next use tries again.
 *
 * <p>Checked, from {@link UsedValues.Handle#read()}, the path clients take: they read what a
 * statement needs before running it. A getter that reads on first use throws the same failure
 * wrapped in {@link Unchecked}, as {@link java.io.UncheckedIOException} wraps an I/O error.
 */
public final class PartReadException extends Exception {
    private final boolean cancelled;

    public PartReadException(String message, boolean cancelled) {
        super(message, null, false, false);
        this.cancelled = cancelled;
    }

    /** True when the read stopped because the thread was interrupted (Ctrl-C in the REPL). */
    public boolean cancelled() { return cancelled; }

    /** The failure of a read a getter made on first use; {@link #getCause()} says what failed. */
    public static final class Unchecked extends RuntimeException {
        public Unchecked(PartReadException cause) { super(cause.getMessage(), cause, false, false); }

        @Override public synchronized PartReadException getCause() { return (PartReadException) super.getCause(); }
    }
}
