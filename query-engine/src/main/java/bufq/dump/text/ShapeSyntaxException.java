package bufq.dump.text;

/** A shape text the {@link ShapeParser} cannot read; callers turn it into a load warning. */
public final class ShapeSyntaxException extends RuntimeException {
    private final int position;

    public ShapeSyntaxException(String message, int position) {
        super(message);
        this.position = position;
    }

    /** Offset in the shape text where reading stopped. */
    public int position() { return position; }
}
