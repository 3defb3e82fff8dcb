package bufq.analysis.advise;


import bufq.analysis.liveness.Liveness;
import bufq.eval.Catalog;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.testing.Corpus;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code advise} runs on every module of the corpus and the seeds: every finding lowers the peak,
 * ranked, and the one list with the changes for the peak's largest allocation holds its invariants.
 */
class AdviseSweepTest {
    @TestFactory
    Stream<DynamicTest> everyCorpusModule() throws Exception {
        return Corpus.sweep((p, modules) -> {
            for (HloModule m : modules) {
                Advisor.Plan plan = Advisor.plan(m, Rules.standard(), Catalog.standard(), TilingModel.TPU, n -> null);
                List<Advisor.Measured> found = plan.found();
                AdvisorTest.checkRanking(m, found);
                if (!found.isEmpty()) AdvisorTest.checkReport(m, found);
                if (Liveness.of(m).peakTime() < 0) continue;
                Remedy.Answer remedy = Remedy.answer(m, null, null, List.of(m), null, Catalog.standard(), TilingModel.TPU, n -> null);
                AdviceListTest.hold(AdviceList.of(m, plan, remedy, null));
            }
        });
    }
}
