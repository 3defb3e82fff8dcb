package bufq.eval;

/** A script field threw; the query reports it by name. */
final class FieldFailure extends RuntimeException {
    final String field;

    FieldFailure(String field, RuntimeException cause) {
        super(cause.getMessage(), cause, false, false);
        this.field = field;
    }
}
