package bufq.analysis.check;

import bufq.model.LoadWarning;
import bufq.model.HloModule;

import java.util.Locale;

/**
 * {@code orphan-live-range}: BufferLiveRange lines that join no value of the allocation section, so
 * their bytes are missing from every recomputation. The reader reports each such line as a load
 * warning ("live range of 'x{}' matches no value ..."), which is where this check finds them; the
 * reader keeps only its first warnings, so when some were dropped the check says so.
 */
final class OrphanRanges {
    private OrphanRanges() {}

    static void report(HloModule m, Reporter r) {
        for (LoadWarning w : m.warnings()) {
            if (isOrphan(w.message())) r.error(w.line() > 0 ? w.file() + ":" + w.line() : w.file(), w.message());
        }
        int dropped = m.warningCount() - m.warnings().size();
        if (dropped > 0) {
            r.warn(m.handle(), dropped + " load warnings were not kept; orphan live ranges among them are not listed");
        }
    }

    static boolean isOrphan(String message) {
        String s = message.toLowerCase(Locale.ROOT);
        return s.contains("live range") && (s.contains("matches no value") || s.contains("joins no value"));
    }
}
