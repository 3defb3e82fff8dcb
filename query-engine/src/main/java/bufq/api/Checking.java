package bufq.api;

import bufq.analysis.check.CheckReport;
import bufq.analysis.check.CheckReports;
import bufq.analysis.check.Checks;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;

import java.util.ArrayList;
import java.util.List;

/** The engine's answer to "is this dump consistent": the built-in checks and a client's, on one module or every one. */
public final class Checking {
    private Checking() {}

    /**
     * What the checks found.
     *
     * @param summary one line: counts by severity
     * @param errors  whether any finding is an error (a CI run fails)
     */
    public record Answer(List<Output> outputs, String summary, boolean errors) {
        public Answer {
            outputs = List.copyOf(outputs);
        }
    }

    /** The built-in checks (under {@code tiling}) and then {@code extra} on {@code m}. */
    public static Answer module(HloModule m, TilingModel tiling, List<Extensions.Check> extra) {
        CheckReport r = Checks.check(m, tiling, Extensions.checks(extra));
        return new Answer(r.outputs(), r.summary(), r.hasErrors());
    }

    /** Checks every module, one table for all, fed one module at a time. */
    public static final class Sweep {
        private final TilingModel tiling;
        private final List<Extensions.Check> extra;
        private final List<CheckReport> reports = new ArrayList<>();

        public Sweep(TilingModel tiling, List<Extensions.Check> extra) {
            this.tiling = tiling;
            this.extra = List.copyOf(extra);
        }

        /** Checks {@code m}. */
        public void add(HloModule m) { reports.add(Checks.check(m, tiling, Extensions.checks(extra))); }

        /** What the modules added so far gave. */
        public Answer answer() {
            CheckReports all = new CheckReports(reports);
            return new Answer(all.outputs(), all.summary(), all.hasErrors());
        }
    }
}
