package bufq.model;

/** A value's live range in program order, both ends inclusive ({@code end == max} means live out). */
public record LiveRange(int start, int end) {
    public boolean liveAt(int t) { return start <= t && t <= end; }
    public boolean overlaps(int from, int to) { return start <= to && from <= end; }
    @Override public String toString() { return start + "-" + end; }
}
