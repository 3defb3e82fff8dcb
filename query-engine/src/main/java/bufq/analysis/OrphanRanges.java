package bufq.analysis;

import bufq.model.LoadWarning;
import bufq.model.Module;

import java.util.Locale;

/**
 * {@code orphan-live-range}: BufferLiveRange lines that join no value of the allocation section, so
 * their bytes are missing from every recomputation. The reader reports such lines as load warnings.
 */
final class OrphanRanges {
    private OrphanRanges() {}

    static void report(Module m, Reporter r) {
        for (LoadWarning w : m.warnings()) {
            String s = w.message().toLowerCase(Locale.ROOT);
            if (s.contains("live range") && (s.contains("no value") || s.contains("join"))) {
                r.error(w.line() > 0 ? w.file() + ":" + w.line() : w.file(), w.message());
            }
        }
    }
}
