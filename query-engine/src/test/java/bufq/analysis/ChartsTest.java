package bufq.analysis;

import bufq.analysis.timeline.Timeline;
import bufq.analysis.map.AllocationMap;
import bufq.model.HloModule;
import bufq.table.Table;
import bufq.table.TextBlock;
import bufq.testing.Golden;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChartsTest {
    /** 30 steps: a parameter live throughout, activations piling up to step 19, then freed. */
    static HloModule ramp() {
        TestModules.Builder b = new TestModules.Builder("jit_ramp");
        String[] names = new String[30];
        for (int i = 0; i < 30; i++) names[i] = i == 0 ? "Arg_0.1" : i == 29 ? "tuple.3" : "fusion." + i;
        b.steps(names).alloc(0, 4096, 0, "parameter").alloc(1, 64 * 1024, 0, "preallocated-temp")
                .value("Arg_0.1", 0, 0, 4096, "f32[1024]{0}", "0-30");
        for (int i = 1; i < 20; i++) {
            int end = 39 - i;   // the first made dies last, as in a backward pass
            b.value("fusion." + i, 1, (i - 1) * 2048L % (60 * 1024), 2048, "f32[512]{0}", i + "-" + Math.min(end, 28));
        }
        b.instruction("fusion.19", "f32[512]{0}", "fusion", "jit(f)/jvp(mlp)/tanh", "f.py", 7);
        return b.build();
    }

    @Test
    void timelineGolden() throws Exception {
        TextBlock t = (TextBlock) Timeline.chart(ramp(), OptionalInt.empty(), 60).get(0);
        Golden.check(Golden.file("query-engine", "analysis/timeline-ramp-60.txt"), t.text());
    }

    @Test
    void timelineBucketsKeepThePeak() throws Exception {
        TextBlock t = (TextBlock) Timeline.chart(ramp(), OptionalInt.empty(), 20).get(0);
        Golden.check(Golden.file("query-engine", "analysis/timeline-ramp-20.txt"), t.text());
        assertTrue(t.text().contains("1 column = 3 steps"), t.text());
        assertTrue(t.text().contains("peak 19"), t.text());
        for (String line : t.text().split("\n", -1)) {
            if (line.startsWith("occupied bytes")) continue;
            assertTrue(line.codePointCount(0, line.length()) <= 20, "too wide: [" + line + "]");
        }
    }

    @Test
    void allocationMapGolden() throws Exception {
        var out = AllocationMap.chart(ramp(), 1, 60);
        Golden.check(Golden.file("query-engine", "analysis/map-ramp-1-60.txt"), ((TextBlock) out.get(0)).text());
        Table legend = (Table) out.get(1);
        assertEquals(19, legend.size());
        assertEquals("fusion.1", legend.cell(0, 1));
    }

    @Test
    void picturesAreWellFormedXml() throws Exception {
        HloModule m = ramp();
        Document svg = parse(Timeline.svg(m, OptionalInt.empty()));
        assertEquals("svg", svg.getDocumentElement().getLocalName());
        assertTrue(svg.getElementsByTagNameNS("*", "path").getLength() >= 1);
        Document html = parse(Timeline.html(m, OptionalInt.empty()));
        assertEquals("html", html.getDocumentElement().getLocalName());
        assertEquals(1, html.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg").getLength());
        assertTrue(html.getElementsByTagNameNS("*", "script").item(0).getTextContent().contains("fusion.19"));
        for (String page : List.of(Timeline.html(m, OptionalInt.empty()), AllocationMap.html(m, 1))) {
            // Standalone: nothing fetched, the only URLs are the XML namespaces.
            String stripped = page.replace("http://www.w3.org/1999/xhtml", "").replace("http://www.w3.org/2000/svg", "");
            for (String bad : List.of("http", "src=", "href=", "@import", "url(")) {
                assertTrue(!stripped.contains(bad), "page refers outside itself: " + bad);
            }
        }
        Document map = parse(AllocationMap.svg(m, 1));
        assertEquals(19, map.getElementsByTagNameNS("*", "rect").getLength() - 2);
        parse(AllocationMap.html(m, 1));
    }

    @Test
    void picturesOfLongProgramsStayPictureSized() throws Exception {
        TestModules.Builder b = new TestModules.Builder("long");
        String[] names = new String[20000];
        for (int i = 0; i < names.length; i++) names[i] = "op." + i;
        b.steps(names).alloc(0, 1 << 20, 0, "temp");
        for (int i = 0; i < 5000; i++) b.value("op." + (i * 4), 0, (i % 16) * 4096L, 4096, "f32[1024]", (i * 4) + "-" + (i * 4 + 40));
        b.value("op.12345", 0, 0, 1 << 20, "f32[262144]", "12345-12345");
        HloModule m = b.build();
        String svg = Timeline.svg(m, OptionalInt.empty());
        String html = Timeline.html(m, OptionalInt.empty());
        assertTrue(svg.length() < 150_000, "svg has " + svg.length() + " chars");
        assertTrue(html.length() < 250_000, "html has " + html.length() + " chars");
        parse(svg);
        parse(html);
        // The one-step spike at 12345 survives the bucketing, in the marker and in the hover data.
        assertTrue(svg.contains("at step 12345 (op.12345)"), svg.substring(0, 2000));
        assertTrue(html.contains("\"op.12345\""));
    }

    @Test
    void hugeAllocationsDrawTheLargestValues() throws Exception {
        TestModules.Builder b = new TestModules.Builder("huge").steps("a", "b").alloc(0, 1 << 30, 0, "temp");
        for (int i = 0; i < 6000; i++) b.value("v." + i, 0, i * 1024L, 1024 + (i == 5999 ? 1 << 20 : 0), "u8[1024]", "0-1");
        HloModule m = b.build();
        Document svg = parse(AllocationMap.svg(m, 0));
        assertEquals(6000 - 2000 + 2, svg.getElementsByTagNameNS("*", "rect").getLength());
        assertTrue(svg.getDocumentElement().getTextContent().contains("2000 smaller values not drawn"));
        assertTrue(svg.getDocumentElement().getTextContent().contains("v.5999"), "the largest is drawn");
        parse(AllocationMap.html(m, 0));
        var out = AllocationMap.chart(m, 0, 100);
        // the legend lists what the picture shows and counts the values hidden under later ones
        bufq.table.Table legend = (bufq.table.Table) out.get(1);
        assertEquals(6000, legend.size() + Integer.parseInt(legend.notes().get(0).split(" ")[0]));
    }

    static Document parseUnchecked(String xml) {
        try {
            return parse(xml);
        } catch (Exception e) {
            throw new IllegalStateException("not well-formed: " + e.getMessage(), e);
        }
    }

    static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
