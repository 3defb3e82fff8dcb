package bufq.model;

/**
 * A part of a module read on first use could not be read: the read was cancelled (the thread was
 * interrupted), or a file changed or vanished since the module was loaded. The message is one line
 * naming the file. Nothing is kept: the next use tries again.
 */
public final class PartUnavailableException extends RuntimeException {
    private final boolean cancelled;

    public PartUnavailableException(String message, boolean cancelled) {
        super(message, null, false, false);
        this.cancelled = cancelled;
    }

    /** True when the read stopped because the thread was interrupted (Ctrl-C in the REPL). */
    public boolean cancelled() { return cancelled; }
}
