package bufq.analysis.map;

import bufq.units.Units;
import bufq.format.chart.Ticks;
import bufq.format.chart.Xml;
import bufq.model.BufferAllocation;
import bufq.model.HloValue;
import bufq.model.HloModule;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** {@code map allocation N --svg/--html}: one rectangle per value, offset down, step right, with titles. */
final class AllocationMapPicture {
    static final int W = 960, H = 520, LEFT = 84, RIGHT = 24, TOP = 44, BOTTOM = 48;

    private AllocationMapPicture() {}

    static String svg(HloModule m, int allocation) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svgElement(m, allocation);
    }

    static String svgElement(HloModule m, int allocation) {
        BufferAllocation a = MapChart.require(m, allocation);
        List<MapChart.Block> blocks = MapChart.blocks(m, a);
        StringBuilder o = new StringBuilder();
        String title = m.handle() + ": allocation " + a.index() + " (" + a.kind() + ", " + Units.human(a.size()) + ", "
                + blocks.size() + " values)";
        o.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(W).append("\" height=\"").append(H)
                .append("\" viewBox=\"0 0 ").append(W).append(' ').append(H)
                .append("\" font-family=\"sans-serif\" font-size=\"11\">\n<title>").append(Xml.esc(title)).append("</title>\n");
        o.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        o.append("<text x=\"").append(LEFT).append("\" y=\"20\" font-size=\"16\" font-weight=\"bold\">")
                .append(Xml.esc(title)).append("</text>\n");
        int steps = Math.max(1, m.steps());
        double pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
        double dx = pw / steps;
        long size = Math.max(1, a.size());
        o.append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"").append(Xml.n(pw))
                .append("\" height=\"").append(Xml.n(ph)).append("\" fill=\"#f4f4f4\" stroke=\"#333\"/>\n");
        // A picture of 100k rectangles helps no one: draw the largest (by drawn area) and say so.
        boolean[] drawn = largest(blocks, MAX_RECTS);
        int skipped = 0;
        for (int i = 0; i < blocks.size(); i++) {
            if (!drawn[i]) {
                skipped++;
                continue;
            }
            MapChart.Block b = blocks.get(i);
            HloValue v = b.value();
            double x = LEFT + b.start() * dx, w = (b.end() - b.start() + 1) * dx;
            double y = TOP + (double) v.offset() / size * ph, h = Math.max(1.0, (double) v.size() / size * ph);
            String tip = v.label() + ": offset " + v.offset() + ", size " + v.size() + " (" + Units.human(v.size())
                    + "), live " + (v.range() == null ? "none (drawn over the whole span)" : v.range().toString())
                    + ", " + v.shape().text();
            o.append("<g class=\"v\"><rect x=\"").append(Xml.n(x)).append("\" y=\"").append(Xml.n(y)).append("\" width=\"")
                    .append(Xml.n(w)).append("\" height=\"").append(Xml.n(h)).append("\" fill=\"").append(Xml.color(i))
                    .append("\" fill-opacity=\"").append(b.spanned() ? "0.35" : "0.85")
                    .append("\" stroke=\"#fff\"").append(b.spanned() ? " stroke-dasharray=\"3 2\"" : "").append(">")
                    .append("<title>").append(Xml.esc(tip)).append("</title></rect>");
            String name = v.label();
            double len = name.length() * 6.5 + 4;
            if (w >= len && h >= 13) {
                o.append("<text x=\"").append(Xml.n(x + 3)).append("\" y=\"").append(Xml.n(y + 11))
                        .append("\" pointer-events=\"none\">").append(Xml.esc(name)).append("</text>");
            } else if (h >= len && w >= 13) {
                // Tall and narrow (a short-lived big value): write the name downwards.
                o.append("<text transform=\"translate(").append(Xml.n(x + 3)).append(',').append(Xml.n(y + 3))
                        .append(") rotate(90)\" pointer-events=\"none\">").append(Xml.esc(name)).append("</text>");
            }
            o.append("</g>\n");
        }
        if (skipped > 0) {
            o.append("<text x=\"").append(W - RIGHT).append("\" y=\"").append(TOP - 8).append("\" text-anchor=\"end\">")
                    .append(skipped).append(" smaller values not drawn</text>\n");
        }
        for (long off : Ticks.bytes(a.size())) {
            double y = TOP + ph * off / a.size();
            o.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(Xml.n(y + 4)).append("\" text-anchor=\"end\">")
                    .append(Xml.esc(Units.human(off))).append("</text>\n");
        }
        for (int t : Ticks.steps(steps, 12)) {
            o.append("<text x=\"").append(Xml.n(LEFT + (t + 0.5) * dx)).append("\" y=\"").append(Xml.n(TOP + ph + 16))
                    .append("\" text-anchor=\"middle\">").append(t).append("</text>\n");
        }
        o.append("<text x=\"").append(Xml.n(LEFT + pw / 2)).append("\" y=\"").append(H - 12)
                .append("\" text-anchor=\"middle\">step</text>\n");
        o.append("<text transform=\"translate(16,").append(Xml.n(TOP + ph / 2))
                .append(") rotate(-90)\" text-anchor=\"middle\">offset in allocation</text>\n</svg>\n");
        return o.toString();
    }

    static final int MAX_RECTS = 4000;

    /** Marks the {@code max} blocks with the largest size-times-steps area (all when there are fewer). */
    static boolean[] largest(List<MapChart.Block> blocks, int max) {
        boolean[] keep = new boolean[blocks.size()];
        if (blocks.size() <= max) {
            Arrays.fill(keep, true);
            return keep;
        }
        Integer[] order = new Integer[blocks.size()];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -area(blocks.get(i))));
        for (int k = 0; k < max; k++) keep[order[k]] = true;
        return keep;
    }

    private static double area(MapChart.Block b) {
        return (double) Math.max(1, b.value().size()) * (b.end() - b.start() + 1);
    }

    static String html(HloModule m, int allocation) {
        BufferAllocation a = MapChart.require(m, allocation);
        String title = m.handle() + ": allocation " + a.index();
        String css = "body{font-family:sans-serif;margin:16px;color:#222}svg{width:100%;height:auto}g.v:hover rect{stroke:#000;stroke-width:2}"
                + "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}";
        StringBuilder body = new StringBuilder(svgElement(m, allocation))
                .append("<table>\n<tr><th>value</th><th>offset</th><th>size</th><th>live</th><th>shape</th></tr>\n");
        List<MapChart.Block> blocks = MapChart.blocks(m, a);
        boolean[] listed = largest(blocks, MAX_RECTS);
        for (int i = 0; i < blocks.size(); i++) {
            if (!listed[i]) continue;
            HloValue v = blocks.get(i).value();
            body.append("<tr><td>").append(Xml.esc(v.label())).append("</td><td>").append(v.offset()).append("</td><td>")
                    .append(v.size()).append("</td><td>")
                    .append(v.range() == null ? "none" : v.range().toString()).append("</td><td>")
                    .append(Xml.esc(v.shape().text())).append("</td></tr>\n");
        }
        body.append("</table>");
        if (blocks.size() > MAX_RECTS) {
            body.append("\n<p>").append(blocks.size() - MAX_RECTS).append(" smaller values not listed.</p>");
        }
        return Xml.xhtml(title, css, body.toString(), "// hover shows each value's title; no script needed");
    }
}
