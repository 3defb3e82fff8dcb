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
import bufq.table.Output;

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
     * @param oom      the loaded messages, or null
     * @param source   how results name the messages' file ("run.log")
     * @param modules  every loaded module, in running order (the messages join to them)
     * @param capacity the capacity said, or null (a message's figures may bound it)
     * @return the remedy tables, empty without an allocation to answer for
     */
    public static List<Output> answer(HloModule m, OomText oom, String source, List<HloModule> modules, Capacity capacity,
                                      Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        OomReport.Join join = null;
        if (oom != null)
            for (OomReport.Join j : OomReport.joins(oom, modules))
                if (join == null && j.module() != null && j.module().handle().equals(m.handle())) join = j;
        BufferAllocation a = Remedy.target(m, join != null && join.allocation() != null ? join.allocation().index() : -1);
        if (a == null) return List.of();
        String why = join != null && join.allocation() != null && join.allocation().index() == a.index()
                ? "the allocation message " + join.number() + " of " + source + " failed on"
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
                for (Changes.Change c : r.changes()) {
                    if (c.kind().equals("cut temp")) continue;   // the chunking measures that, per value
                    others.add(new Remedy.Change(c.kind() + " " + c.target(), c.bytes(), Remedy.FIT, c.why(),
                            c.statement() != null ? c.statement() : "fit drop " + c.target()));
                }
            } catch (IllegalArgumentException e) {
                // no capacity and no failure among these programs to bound it: no fit changes
            }
        }
        return Remedy.report(m, a, why, offered, over, others, catalog, tiling, tilings);
    }
}
