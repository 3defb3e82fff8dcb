package bufq.dump.text;

/** A shape text the {@link ShapeParser} cannot read; callers turn it into a load warning. */
final class ShapeSyntaxException extends RuntimeException {
    private final int position;

    ShapeSyntaxException(String message, int position) {
        super(message);
        this.position = position;
    }

    /** Offset in the shape text where reading stopped. */
    int position() { return position; }
}
