package bufq.units;

/**
 * A size that cannot be read, with a lowercase message saying what was expected. A {@link
 * NumberFormatException}, so that callers reading numbers and sizes alike catch one type.
 */
public final class SizeException extends NumberFormatException {
    public SizeException(String message) {
        super(message);
    }
}
