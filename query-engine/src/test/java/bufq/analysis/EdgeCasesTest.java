package bufq.analysis;

import bufq.analysis.waste.Waste;
import bufq.analysis.blame.Blame;
import bufq.analysis.peak.Peak;
import bufq.analysis.blame.BlameBy;
import bufq.analysis.timeline.Timeline;
import bufq.analysis.map.AllocationMap;
import bufq.analysis.check.Checks;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.TextBlock;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Degenerate modules: every analysis still answers, and user mistakes are one-line errors. */
class EdgeCasesTest {
    static List<HloModule> odd() {
        return List.of(
                new TestModules.Builder("empty").build(),
                new TestModules.Builder("no-values").steps("a", "b").alloc(0, 0, 0, "temp").build(),
                new TestModules.Builder("zero-sized").steps("a").alloc(0, 0, 0, "temp")
                        .value("t", 0, 0, 0, "token[]", "0-1").build(),
                new TestModules.Builder("unranged").alloc(0, 64, 0, "thread-local").value("x", 0, 0, 64, "f32[16]", null).build(),
                new TestModules.Builder("odd <names> & \"quotes\"").steps("a<b>&\"c\"", "]]>").alloc(0, 64, 0, "temp")
                        .value("a<b>&\"c\"", 0, 0, 32, "f32[8]", "0-1").value("]]>", 0, 32, 32, "f32[8]", "1-2")
                        .instruction("]]>", "f32[8]", "add", "jit(f)/</script>", "x.py", 1).build());
    }

    @Test
    void everyAnalysisAnswersOnDegenerateModules() throws Exception {
        for (HloModule m : odd()) {
            List<Output> out = new ArrayList<>();
            out.addAll(Peak.report(m, OptionalInt.empty(), 16, TilingModel.TPU));
            out.addAll(Timeline.chart(m, OptionalInt.empty(), 40));
            out.addAll(Waste.padding(m, null));
            out.addAll(Waste.fragmentation(m));
            for (BlameBy by : BlameBy.values()) out.addAll(Blame.atPeak(m, by, 2));
            for (var a : m.allocations()) {
                out.addAll(AllocationMap.chart(m, a.index(), 40));
                ChartsTest.parse(AllocationMap.svg(m, a.index()));
                ChartsTest.parse(AllocationMap.html(m, a.index()));
            }
            ChartsTest.parse(Timeline.svg(m, OptionalInt.empty()));
            ChartsTest.parse(Timeline.html(m, OptionalInt.empty()));
            Checks.check(m, null, List.of());
            assertTrue(out.size() > 5, m.handle());
        }
    }

    @Test
    void scriptTextCannotBreakOutOfTheHtml() throws Exception {
        HloModule m = odd().get(4);
        String html = Timeline.html(m, OptionalInt.empty());
        ChartsTest.parse(html);
        String script = html.substring(html.indexOf("//<![CDATA["), html.indexOf("//]]>"));
        assertTrue(!script.contains("]]>") && !script.contains("</script"), script);
    }

    @Test
    void unknownColorAndAllocationAreOneLineErrors() {
        HloModule m = TestModules.unstack();
        var e = assertThrows(IllegalArgumentException.class, () -> Peak.report(m, OptionalInt.of(3), 0, null));
        assertEquals("no color 3 in jit__unstack (memory spaces: hbm (color 0))", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Timeline.svg(m, OptionalInt.of(9)));
        var a = assertThrows(IllegalArgumentException.class, () -> AllocationMap.chart(m, 99, 80));
        assertEquals("no allocation 99 in jit__unstack (allocations 0..6)", a.getMessage());
    }

    @Test
    void narrowWidthStillDrawsAChart() {
        String t = ((TextBlock) Timeline.chart(ChartsTest.ramp(), OptionalInt.empty(), 5).get(0)).text();
        assertTrue(t.contains("▲"), t);
    }
}
