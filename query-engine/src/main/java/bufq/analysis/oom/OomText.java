package bufq.analysis.oom;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What {@link OomReader} found in a paste: its messages in order, and warnings about lines it
 * skipped outside them (binary data, messages past the bound),
 * and the warnings of the log around them.
 *
 * @param messages one per out-of-memory message, in the order they appear
 * @param warnings warnings outside any message (each message carries its own)
 * @param lines    how many lines the paste had
 * @param events   the log's lines around the failures that explain them (rematerialization, donations,
 *                 recompilations, memory analyses, allocations their caller said were not failures)
 */
public record OomText(List<OomMessage> messages, List<OomWarning> warnings, int lines, List<LogEvent> events) {
    public OomText {
        messages = List.copyOf(messages);
        warnings = List.copyOf(warnings);
        events = List.copyOf(events);
    }

    /** Every warning, the paste's and its messages', by line. */
    public List<OomWarning> allWarnings() {
        List<OomWarning> all = new ArrayList<>(warnings);
        for (OomMessage m : messages) all.addAll(m.warnings());
        all.sort(Comparator.comparingInt(OomWarning::line));
        return all;
    }
}
