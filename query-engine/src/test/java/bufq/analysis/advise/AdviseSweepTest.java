package bufq.analysis.advise;


import bufq.eval.Catalog;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.testing.Corpus;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** {@code advise} runs on every module of the corpus and the seeds: every finding lowers the peak, ranked. */
class AdviseSweepTest {
    @TestFactory
    Stream<DynamicTest> everyCorpusModule() throws Exception {
        return Corpus.sweep((p, modules) -> {
            for (HloModule m : modules) {
                List<Advisor.Measured> found = Advisor.run(m, Rules.standard(), Catalog.standard(), TilingModel.TPU, n -> null);
                AdvisorTest.checkRanking(m, found);
                if (!found.isEmpty()) AdvisorTest.checkReport(m, found);
            }
        });
    }
}
