package bufq.model;

import java.util.List;

/** A node of the {@code Stack trace breakdown for peak usage} tree. */
public record StackTraceNode(String label, double percent, long total, long current, long remaining,
                             List<StackTraceNode> children) {
    public StackTraceNode {
        children = List.copyOf(children);
    }
}
