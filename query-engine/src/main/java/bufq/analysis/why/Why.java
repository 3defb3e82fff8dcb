package bufq.analysis.why;

import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * {@code why}: for each value, what it is, where it is born, its uses, why it ends there, its idle
 * stretches and its weight at the peak ({@link WhyReport}). A pure function of a loaded module.
 */
public final class Why {
    private Why() {}

    /**
     * {@code why}: for each value, what it is, where it is born, its uses, why it ends there, its idle
     * stretches and its weight at the peak.
     *
     * @throws CancellationException when the thread is interrupted (Ctrl-C) before the last value;
     *         the interrupt flag stays set
     */
    public static List<WhyReport> of(HloModule m, List<HloValue> values) {
        List<WhyReport> out = new ArrayList<>(values.size());
        WhyReport.PeakHoldings holdings = new WhyReport.PeakHoldings(m);
        for (HloValue v : values) {
            if (Thread.currentThread().isInterrupted()) throw new CancellationException("why cancelled");
            out.add(WhyReport.of(m, v, holdings));
        }
        return out;
    }
}
