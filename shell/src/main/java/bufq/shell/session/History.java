package bufq.shell.session;

import java.util.ArrayList;
import java.util.List;

/** The statements entered this session, oldest first. The JLine REPL feeds it from its own history. */
public final class History {
    private final List<String> entries = new ArrayList<>();

    public synchronized void add(String line) {
        String t = line.strip();
        if (!t.isEmpty() && (entries.isEmpty() || !entries.get(entries.size() - 1).equals(t))) entries.add(t);
    }

    public synchronized List<String> entries() { return List.copyOf(entries); }
}
