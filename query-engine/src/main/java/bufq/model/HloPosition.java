package bufq.model;

/** Where a value appears: an instruction and a shape index in its output ({@code "{}"} for the whole). */
public record HloPosition(String instruction, String index) {
    @Override public String toString() { return "{}".equals(index) ? instruction : instruction + " " + index; }
}
