package bufq.dump.text;

import bufq.dump.file.OneLine;
import bufq.model.LoadWarning;

import java.util.ArrayList;
import java.util.List;

/** Warnings of one module, capped in memory: the first {@link #CAP} are kept, the rest only counted. */
public final class Warnings {
    public static final int CAP = 100;

    private final List<LoadWarning> kept = new ArrayList<>();
    private int count;

    public synchronized void add(String file, long line, String message) {
        count++;
        if (kept.size() < CAP) kept.add(new LoadWarning(OneLine.of(file), line, OneLine.of(message)));
    }

    synchronized void addAll(Warnings other) {
        for (LoadWarning w : other.kept) {
            count++;
            if (kept.size() < CAP) kept.add(w);
        }
        count += other.count - other.kept.size();
    }

    public synchronized List<LoadWarning> kept() { return List.copyOf(kept); }
    public synchronized int count() { return count; }
}
