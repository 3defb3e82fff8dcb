package bufq.analysis.advise;

import bufq.eval.Catalog;
import bufq.analysis.fit.Capacities;
import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.Changes;
import bufq.analysis.fit.Failure;
import bufq.analysis.fit.Fit;
import bufq.analysis.fit.FitReport;
import bufq.analysis.fit.Keep;
import bufq.analysis.fit.Program;
import bufq.lang.QueryException;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.analysis.oom.OomReport;
import bufq.analysis.oom.OomText;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The remedy policy, for every client: which allocation of a module to answer for (the one a loaded
 * out-of-memory message failed on, else the largest live at the peak), what else was held beside
 * the program ({@code fit}'s drops, under the capacity said or the bound the message implies), and
 * by how much it is over, so the changes that make it fit rank first.
 */
public final class Remedies {
    private Remedies() {}

    /**
     * The allocation answered for and its changes.
     *
     * @param why     how it was chosen ("the allocation message 1 of run.log failed on")
     * @param failing whether an out-of-memory message failed on it (else it is the peak's largest)
     * @param over    by how much the program is over what it is offered with what is held beside it;
     *                -1 when not known or not over
     */
    public record Answer(BufferAllocation allocation, String why, boolean failing, long over, List<Remedy.Change> changes) {
        public Answer {
            changes = List.copyOf(changes);
        }
    }

    /**
     * @param oom      the loaded messages, or null
     * @param source   how results name the messages' file ("run.log")
     * @param modules  every loaded module, in running order (the messages join to them)
     * @param capacity the capacity said, or null (a message's figures may bound it)
     * @return the allocation and its changes; null without an allocation to answer for
     */
    public static Answer answer(HloModule m, OomText oom, String source, List<HloModule> modules, Capacity capacity,
                                      Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        OomReport.Join join = null;
        if (oom != null)
            for (OomReport.Join j : OomReport.joins(oom, modules))
                if (join == null && j.module() != null && j.module().handle().equals(m.handle())) join = j;
        BufferAllocation a = Remedy.target(m, join != null && join.allocation() != null ? join.allocation().index() : -1);
        if (a == null) return null;
        boolean failing = join != null && join.allocation() != null && join.allocation().index() == a.index();
        String why = failing ? "the allocation message " + join.number() + " of " + source + " failed on"
                : "the largest allocation live at the peak";
        List<Remedy.Change> others = new ArrayList<>();
        long offered = -1, over = -1;
        List<Failure> failures = oom == null ? List.of() : Capacities.failures(oom, source, modules);
        if (capacity != null || !failures.isEmpty()) {
            List<Program> programs = new ArrayList<>();
            for (HloModule x : modules) programs.add(Program.of(x));
            if (programs.isEmpty()) programs.add(Program.of(m));
            try {
                FitReport r = FitReport.of(programs, capacity, Keep.ALL, "", failures);
                offered = r.capacity().offeredBytes();
                for (Fit.Step s : r.steps()) if (s.program().handle().equals(m.handle()) && !s.fits()) over = s.overBytes();
                String set = null;   // fit names the set of arrays once, on its first row: each row of it reproduces by that
                for (Changes.Change c : r.changes()) {
                    if (c.kind().equals("cut temp")) continue;   // the chunking measures that, per value
                    if (c.statement() != null) set = c.statement();
                    others.add(new Remedy.Change(c.kind() + " " + c.target(), c.bytes(), Remedy.FIT, JaxCode.fit(c), c.why(),
                            set != null ? set : "fit drop " + c.target()));
                }
            } catch (IllegalArgumentException e) {
                // no capacity and no failure among these programs to bound it: no fit changes
            }
        }
        return new Answer(a, why, failing, over, Remedy.changes(m, a, offered, others, catalog, tiling, tilings));
    }
}
