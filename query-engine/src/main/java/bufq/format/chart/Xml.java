package bufq.format.chart;

import java.util.Locale;

/** Escaping and small helpers shared by the SVG and XHTML pictures (all output is well-formed XML). */
public final class Xml {
    public static final String[] PALETTE = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
            "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

    private Xml() {}

    /** Text and attribute escaping; drops characters XML 1.0 forbids. */
    public static String esc(String s) {
        if (s == null) return "";
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') b.append(' ');
                    else b.append(c);
                }
            }
        }
        return b.toString();
    }

    /** A JavaScript string literal safe inside a CDATA section and an HTML script element. */
    public static String js(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029)
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    /** A coordinate with one decimal, locale-independent. */
    public static String n(double v) {
        long tenths = Math.round(v * 10);
        String sign = tenths < 0 ? "-" : "";
        tenths = Math.abs(tenths);
        return tenths % 10 == 0 ? sign + tenths / 10 : sign + tenths / 10 + "." + tenths % 10;
    }

    public static String color(int i) { return PALETTE[Math.floorMod(i, PALETTE.length)]; }

    /** Wraps an inline SVG element in a standalone XHTML page with inline CSS and script only. */
    public static String xhtml(String title, String css, String body, String script) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n"
                + "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"UTF-8\"/>\n"
                + "<title>" + esc(title) + "</title>\n<style>\n/*<![CDATA[*/\n" + css + "\n/*]]>*/\n</style>\n</head>\n"
                + "<body>\n" + body + "\n<script>\n//<![CDATA[\n" + script + "\n//]]>\n</script>\n</body>\n</html>\n";
    }
}
