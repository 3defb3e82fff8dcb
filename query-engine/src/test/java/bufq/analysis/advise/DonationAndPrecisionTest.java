package bufq.analysis.advise;

import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Over every corpus module: donation proposes at most one parameter per output of its shape (what
 * can really alias), and on XLA:CPU bf16 is never proposed for a value a dot makes or reads.
 */
class DonationAndPrecisionTest {
    @TestFactory
    Stream<DynamicTest> everyCorpusModule() throws Exception {
        return Corpus.sweep((p, modules) -> {
            for (HloModule m : modules) {
                List<Advisor.Measured> found = Advisor.run(m, List.of(new DonationRule(), new HalfPrecisionRule()),
                        Catalog.standard(), TilingModel.TPU, n -> null);
                Facts f = new Facts(m);
                for (Advisor.Measured x : found) {
                    if (x.advice().rule().equals("donation")) checkDonation(m, x.advice());
                    if (x.advice().rule().equals("f32") && "cpu".equals(m.info().backend()))
                        for (HloValue v : x.advice().values())
                            assertFalse(HalfPrecisionRule.dotBound(f, v), v.name() + " is a dot's: XLA:CPU keeps it f32");
                }
            }
        });
    }

    static void checkDonation(HloModule m, Advice a) {
        Map<String, Set<Integer>> outputs = new HashMap<>();
        for (HloValue v : m.values()) {
            BufferAllocation al = m.allocation(v.allocation());
            if (al != null && (al.maybeLiveOut() || al.isOutput()) && !al.isParameter() && v.shape() != null && v.shape().isArray())
                outputs.computeIfAbsent(v.shape().dtype() + Arrays.toString(v.shape().dims()), k -> new HashSet<>()).add(al.index());
        }
        Map<String, Integer> asked = new HashMap<>();
        for (HloValue v : a.values()) asked.merge(v.shape().dtype() + Arrays.toString(v.shape().dims()), 1, Integer::sum);
        for (Map.Entry<String, Integer> e : asked.entrySet())
            assertTrue(e.getValue() <= outputs.getOrDefault(e.getKey(), Set.of()).size(),
                    e.getKey() + ": " + e.getValue() + " parameters for " + outputs.get(e.getKey()) + " outputs in " + m.handle());
        assertTrue(a.finding().contains("donate_argnums=("), a.finding());
    }
}
