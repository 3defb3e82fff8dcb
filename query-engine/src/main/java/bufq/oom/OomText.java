package bufq.oom;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What {@link OomReader} found in a paste: its messages in order, and warnings about lines it
 * skipped outside them (binary data, over-long lines).
 *
 * @param messages one per out-of-memory message, in the order they appear
 * @param warnings warnings outside any message (each message carries its own)
 * @param lines    how many lines the paste had
 */
public record OomText(List<OomMessage> messages, List<OomWarning> warnings, int lines) {
    public OomText {
        messages = List.copyOf(messages);
        warnings = List.copyOf(warnings);
    }

    /** Every warning, the paste's and its messages', by line. */
    public List<OomWarning> allWarnings() {
        List<OomWarning> all = new ArrayList<>(warnings);
        for (OomMessage m : messages) all.addAll(m.warnings());
        all.sort(Comparator.comparingInt(OomWarning::line));
        return all;
    }
}
