package bufq.model;

/** A read of a value: instruction {@code user} takes it as operand {@code operand} at {@code index}. */
public record HloUse(String user, int operand, String index) {
    @Override public String toString() {
        return user + ", operand " + operand + ("{}".equals(index) ? "" : " " + index);
    }
}
