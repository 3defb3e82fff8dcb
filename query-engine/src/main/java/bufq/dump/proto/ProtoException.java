package bufq.dump.proto;

/**
 * A proto that cannot be read: where (byte offset in the file, and the path of messages and fields
 * down to the bad one, such as {@code HloProto.buffer_assignment.buffer_allocations[3].assigned[0]})
 * and what was expected. {@link #getMessage()} is one line.
 */
public final class ProtoException extends Exception {
    private final long offset;
    private final String path;
    private final String reason;
    private final boolean cancelled;

    public ProtoException(long offset, String path, String reason) {
        this(offset, path, reason, false);
    }

    private ProtoException(long offset, String path, String reason, boolean cancelled) {
        super("byte " + offset + (path.isEmpty() ? "" : " (" + path + ")") + ": " + reason, null, false, false);
        this.offset = offset;
        this.path = path;
        this.reason = reason;
        this.cancelled = cancelled;
    }

    /** The load stopped because the loading thread was interrupted (Ctrl-C in the REPL). */
    public static ProtoException cancelled(long offset, String path) {
        return new ProtoException(offset, path, "cancelled", true);
    }

    /** Whether this is {@link #cancelled}: the caller says "cancelled", not where. */
    public boolean isCancelled() {
        return cancelled;
    }

    /** Byte offset in the file (in the inflated bytes of a {@code .gz}). */
    public long offset() { return offset; }
    /** Message path down to the field concerned, e.g. {@code HloProto.hlo_module.computations[2]}; may be empty. */
    public String path() { return path; }
    /** What was wrong, without the location. */
    public String reason() { return reason; }
}
