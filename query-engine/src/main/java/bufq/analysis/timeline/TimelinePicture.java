package bufq.analysis.timeline;

import bufq.analysis.liveness.Steps;
import bufq.units.Units;
import bufq.format.chart.Ticks;
import bufq.format.chart.Xml;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * {@code timeline --svg/--html}: occupied bytes per step as a standalone picture, stacked by
 * colour, with axes and the peak marked. The HTML page adds a hover read-out (step, instruction,
 * bytes per colour) with inline script only, so it works offline and as an attachment.
 */
final class TimelinePicture {
    static final int W = 960, H = 420, LEFT = 84, RIGHT = 24, TOP = 44, BOTTOM = 64;

    private TimelinePicture() {}

    /** The data behind a picture: per-colour occupied bytes, stacked in colour order. */
    record Series(List<Integer> colors, List<long[]> bytes, long[] total) {
        static Series of(HloModule m, OptionalInt color) {
            List<Integer> cs = new ArrayList<>();
            List<long[]> bs = new ArrayList<>();
            List<Integer> candidates = color.isPresent() ? List.of(color.getAsInt()) : Liveness.of(m).colors();
            long[] total = new long[m.steps()];
            for (int c : candidates) {
                long[] b = Liveness.of(m).occupiedBytesByStep(OptionalInt.of(c));
                boolean any = false;
                for (long x : b) any |= x != 0;
                if (!any && !color.isPresent()) continue;
                cs.add(c);
                bs.add(b);
                for (int t = 0; t < b.length; t++) total[t] += b[t];
            }
            return new Series(cs, bs, total);
        }
    }

    /**
     * The series cut into at most {@link #MAX_COLUMNS} columns of consecutive steps, since a picture
     * cannot show more than its pixels: each column keeps, per stacking level, the maximum of the
     * stacked tops over its steps (so the peak survives), and the step where the total is highest,
     * whose instruction and bytes the hover shows.
     */
    record Columns(int[] from, int[] to, int[] peakStep, long[][] tops) {
        static Columns of(Series s, int steps) {
            int bucket = Math.max(1, (steps + MAX_COLUMNS - 1) / MAX_COLUMNS);
            int n = (steps + bucket - 1) / bucket, levels = s.colors().size();
            int[] from = new int[n], to = new int[n], peak = new int[n];
            long[][] tops = new long[levels][n];
            for (int i = 0; i < n; i++) {
                from[i] = i * bucket;
                to[i] = Math.min(steps, from[i] + bucket);
                peak[i] = from[i];
                for (int t = from[i]; t < to[i]; t++) {
                    long acc = 0;
                    for (int c = 0; c < levels; c++) {
                        acc += s.bytes().get(c)[t];
                        tops[c][i] = Math.max(tops[c][i], acc);
                    }
                    if (s.total()[t] > s.total()[peak[i]]) peak[i] = t;
                }
            }
            return new Columns(from, to, peak, tops);
        }

        int size() { return from.length; }
    }

    static final int MAX_COLUMNS = 1200;

    static String svg(HloModule m, OptionalInt color) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svgElement(m, color);
    }

    static String svgElement(HloModule m, OptionalInt color) {
        StringBuilder o = new StringBuilder();
        o.append("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"chart\" width=\"").append(W).append("\" height=\"")
                .append(H).append("\" viewBox=\"0 0 ").append(W).append(' ').append(H)
                .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
        String title = m.handle() + ": occupied bytes by step" + (color.isPresent() ? " (color " + color.getAsInt() + ")" : "");
        o.append("<title>").append(Xml.esc(title)).append("</title>\n");
        o.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        o.append("<text x=\"").append(LEFT).append("\" y=\"20\" font-size=\"16\" font-weight=\"bold\">")
                .append(Xml.esc(title)).append("</text>\n");
        int steps = m.steps();
        if (Liveness.of(m).peakTime(color) < 0) {
            String why = Liveness.of(m).peakTime() < 0 ? "no live ranges in this dump" : Steps.noPeakOfColor(color.getAsInt()).strip();
            o.append("<text x=\"").append(LEFT).append("\" y=\"").append(H / 2)
                    .append("\">").append(Xml.esc(why)).append("</text>\n</svg>\n");
            return o.toString();
        }
        Series s = Series.of(m, color);
        int peakT = Liveness.of(m).peakTime(color);
        long max = Math.max(1, s.total()[peakT]);
        double pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
        double dx = pw / steps;
        Columns cols = Columns.of(s, steps);
        for (int i = 0; i < s.colors().size(); i++) {
            long[] top = cols.tops()[i];
            long[] base = i == 0 ? new long[cols.size()] : cols.tops()[i - 1];
            StringBuilder d = new StringBuilder();
            for (int k = 0; k < cols.size(); k++) {
                d.append(k == 0 ? "M" : "L").append(Xml.n(LEFT + cols.from()[k] * dx)).append(',')
                        .append(Xml.n(y(top[k], max, ph))).append('H').append(Xml.n(LEFT + cols.to()[k] * dx));
            }
            for (int k = cols.size() - 1; k >= 0; k--) {
                d.append('L').append(Xml.n(LEFT + cols.to()[k] * dx)).append(',').append(Xml.n(y(base[k], max, ph)))
                        .append('H').append(Xml.n(LEFT + cols.from()[k] * dx));
            }
            d.append('Z');
            o.append("<path class=\"series\" d=\"").append(d).append("\" fill=\"").append(Xml.color(s.colors().get(i)))
                    .append("\" fill-opacity=\"0.85\"><title>color ").append(s.colors().get(i)).append("</title></path>\n");
        }
        axes(o, m, steps, max, dx, ph);
        double px = LEFT + (peakT + 0.5) * dx;
        o.append("<line id=\"peak\" x1=\"").append(Xml.n(px)).append("\" x2=\"").append(Xml.n(px)).append("\" y1=\"")
                .append(TOP).append("\" y2=\"").append(Xml.n(TOP + ph)).append("\" stroke=\"#c00\" stroke-dasharray=\"4 3\"/>\n");
        String label = "peak " + Units.human(s.total()[peakT]) + " at step " + peakT + " (" + TimelineChart.name(m, peakT) + ")";
        boolean right = px > LEFT + pw * 0.6;
        o.append("<text x=\"").append(Xml.n(right ? px - 4 : px + 4)).append("\" y=\"").append(TOP - 6)
                .append("\" fill=\"#c00\" text-anchor=\"").append(right ? "end" : "start").append("\">")
                .append(Xml.esc(label)).append("</text>\n");
        legend(o, s);
        o.append("<line id=\"cursor\" x1=\"0\" x2=\"0\" y1=\"").append(TOP).append("\" y2=\"").append(Xml.n(TOP + ph))
                .append("\" stroke=\"#333\" visibility=\"hidden\"/>\n");
        o.append("</svg>\n");
        return o.toString();
    }

    private static double y(long v, long max, double ph) { return TOP + ph - (double) v / max * ph; }

    private static void axes(StringBuilder o, HloModule m, int steps, long max, double dx, double ph) {
        double x0 = LEFT, y0 = TOP + ph, x1 = W - RIGHT;
        o.append("<g stroke=\"#333\" fill=\"none\"><line x1=\"").append(x0).append("\" y1=\"").append(Xml.n(y0))
                .append("\" x2=\"").append(x1).append("\" y2=\"").append(Xml.n(y0)).append("\"/><line x1=\"").append(x0)
                .append("\" y1=\"").append(TOP).append("\" x2=\"").append(x0).append("\" y2=\"").append(Xml.n(y0))
                .append("\"/></g>\n");
        for (long v : Ticks.bytes(max)) {
            double y = y(v, max, ph);
            o.append("<line x1=\"").append(x0 - 4).append("\" x2=\"").append(x0).append("\" y1=\"").append(Xml.n(y))
                    .append("\" y2=\"").append(Xml.n(y)).append("\" stroke=\"#333\"/>");
            o.append("<text x=\"").append(x0 - 6).append("\" y=\"").append(Xml.n(y + 4))
                    .append("\" text-anchor=\"end\">").append(Xml.esc(Units.human(v))).append("</text>\n");
        }
        for (int t : Ticks.steps(steps, 12)) {
            double x = LEFT + (t + 0.5) * dx;
            o.append("<line x1=\"").append(Xml.n(x)).append("\" x2=\"").append(Xml.n(x)).append("\" y1=\"")
                    .append(Xml.n(y0)).append("\" y2=\"").append(Xml.n(y0 + 4)).append("\" stroke=\"#333\"/>");
            o.append("<text x=\"").append(Xml.n(x)).append("\" y=\"").append(Xml.n(y0 + 16))
                    .append("\" text-anchor=\"middle\">").append(t).append("<title>")
                    .append(Xml.esc(Steps.instructionAt(m, t))).append("</title></text>\n");
        }
        o.append("<text x=\"").append(Xml.n(LEFT + (W - LEFT - RIGHT) / 2.0)).append("\" y=\"").append(H - 28)
                .append("\" text-anchor=\"middle\">step (position in the instruction sequence)</text>\n");
        o.append("<text transform=\"translate(16,").append(Xml.n(TOP + ph / 2))
                .append(") rotate(-90)\" text-anchor=\"middle\">occupied bytes</text>\n");
    }

    private static void legend(StringBuilder o, Series s) {
        double x = LEFT;
        for (int c : s.colors()) {
            o.append("<rect x=\"").append(Xml.n(x)).append("\" y=\"").append(H - 16).append("\" width=\"12\" height=\"12\" fill=\"")
                    .append(Xml.color(c)).append("\"/><text x=\"").append(Xml.n(x + 16)).append("\" y=\"").append(H - 6)
                    .append("\">color ").append(c).append("</text>\n");
            x += 90;
        }
    }

    static String html(HloModule m, OptionalInt color) {
        String title = m.handle() + ": occupied bytes by step";
        // the picture takes the window's width (its viewBox keeps the proportions)
        String css = "body{font-family:sans-serif;margin:16px;color:#222}svg{width:100%;height:auto}"
                + "#tip{position:absolute;display:none;background:#fff;border:1px solid #888;padding:4px 8px;"
                + "font-size:12px;pointer-events:none;white-space:pre}";
        String body = svgElement(m, color)
                + "<div id=\"tip\"></div>\n<p>Hover the chart for the step, its instruction and the occupied bytes.</p>";
        return Xml.xhtml(title, css, body, script(m, color));
    }

    private static String script(HloModule m, OptionalInt color) {
        StringBuilder js = new StringBuilder();
        int steps = m.steps();
        Series s = steps == 0 ? new Series(List.of(), List.of(), new long[0]) : Series.of(m, color);
        Columns cols = steps == 0 ? new Columns(new int[0], new int[0], new int[0], new long[0][]) : Columns.of(s, steps);
        int bucket = cols.size() == 0 ? 1 : cols.to()[0] - cols.from()[0];
        // Per column: the step with the most bytes, its instruction, and each colour's bytes there.
        js.append("var peakStep=[");
        for (int k = 0; k < cols.size(); k++) js.append(k == 0 ? "" : ",").append(cols.peakStep()[k]);
        js.append("];\nvar names=[");
        for (int k = 0; k < cols.size(); k++) js.append(k == 0 ? "" : ",").append(Xml.js(Steps.instructionAt(m, cols.peakStep()[k])));
        js.append("];\nvar colors=").append(s.colors()).append(";\nvar bytes=[");
        for (int i = 0; i < s.bytes().size(); i++) {
            js.append(i == 0 ? "[" : ",[");
            long[] b = s.bytes().get(i);
            for (int k = 0; k < cols.size(); k++) js.append(k == 0 ? "" : ",").append(b[cols.peakStep()[k]]);
            js.append(']');
        }
        js.append("];\nvar L=").append(LEFT).append(",PW=").append(W - LEFT - RIGHT).append(",N=").append(steps)
                .append(",B=").append(bucket).append(";\n");
        js.append("""
                function human(b){var u=['B','KiB','MiB','GiB','TiB'],i=0;while(b>=1024&&i<u.length-1){b/=1024;i++;}
                  return (i==0?b:b.toFixed(1))+u[i];}
                var svg=document.getElementById('chart'),tip=document.getElementById('tip'),cur=document.getElementById('cursor');
                svg.addEventListener('mousemove',function(e){
                  if(N==0)return;
                  var p=svg.createSVGPoint();p.x=e.clientX;p.y=e.clientY;
                  var q=p.matrixTransform(svg.getScreenCTM().inverse());
                  var t=Math.floor((q.x-L)/PW*N);
                  if(t<0||t>=N){tip.style.display='none';cur.setAttribute('visibility','hidden');return;}
                  var k=Math.floor(t/B),s=peakStep[k],total=0,lines=[];
                  for(var i=0;i<colors.length;i++){total+=bytes[i][k];lines.push('color '+colors[i]+': '+human(bytes[i][k]));}
                  var head=B>1?'steps '+(k*B)+'-'+Math.min(N-1,k*B+B-1)+', most at step '+s:'step '+s;
                  tip.textContent=head+': '+names[k]+'\\n'+human(total)+' occupied ('+total+' bytes)'+(colors.length>1?'\\n'+lines.join('\\n'):'');
                  tip.style.left=(e.pageX+12)+'px';tip.style.top=(e.pageY+12)+'px';tip.style.display='block';
                  var x=L+(s+0.5)*PW/N;cur.setAttribute('x1',x);cur.setAttribute('x2',x);cur.setAttribute('visibility','visible');
                });
                svg.addEventListener('mouseleave',function(){tip.style.display='none';cur.setAttribute('visibility','hidden');});
                """);
        return js.toString();
    }
}
