package bufq.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The field numbers a project {@code .proto} file declares, read from its text, so a test can hold
 * hand-written field-number constants to the file they were taken from. Knows the subset of the
 * language those files use: {@code message} blocks (nested too), fields with an optional
 * {@code repeated}/{@code optional} label and {@code map<K, V>} fields, {@code //} comments.
 */
public final class ProtoFile {
    private static final Pattern TOKEN = Pattern.compile(
            "message\\s+(\\w+)\\s*\\{"                                                  // 1 message name
            + "|(?:(?:repeated|optional)\\s+)?(?:map\\s*<[^>]*>|[\\w.]+)\\s+(\\w+)\\s*=\\s*(\\d+)\\s*;" // 2 field, 3 number
            + "|(\\})");                                                                // 4 end of a message

    /** Field numbers by message, the message named by its dotted path ({@code Outer.Inner}). */
    private final Map<String, Map<String, Integer>> messages = new LinkedHashMap<>();
    private boolean hasMapField;

    private ProtoFile(String text) {
        Deque<String> open = new ArrayDeque<>();
        Matcher m = TOKEN.matcher(text.replaceAll("//[^\n]*", ""));
        while (m.find()) {
            if (m.group(1) != null) {
                String name = open.isEmpty() ? m.group(1) : open.peek() + "." + m.group(1);
                open.push(name);
                messages.put(name, new LinkedHashMap<>());
            } else if (m.group(2) != null) {
                if (open.isEmpty()) throw new IllegalArgumentException("field " + m.group(2) + " outside a message");
                hasMapField |= m.group().startsWith("map");
                Integer before = messages.get(open.peek()).put(m.group(2), Integer.parseInt(m.group(3)));
                if (before != null) throw new IllegalArgumentException("field " + open.peek() + "." + m.group(2) + " twice");
            } else if (!open.isEmpty()) {
                open.pop();
            }
        }
        if (!open.isEmpty()) throw new IllegalArgumentException("message " + open.peek() + " is not closed");
    }

    /** Reads {@code relative} (e.g. {@code query-engine/src/main/proto/profile.proto}) under the checkout. */
    public static ProtoFile read(String relative) throws IOException {
        return new ProtoFile(Files.readString(Path.of(System.getProperty("bufq.root", ".")).resolve(relative)));
    }

    /** Every message (dotted path for nested ones) with its fields' numbers, in file order. */
    public Map<String, Map<String, Integer>> messages() {
        return messages;
    }

    /** Whether some field is a {@code map<K, V>} (written as entries with key 1 and value 2). */
    public boolean hasMapField() {
        return hasMapField;
    }
}
