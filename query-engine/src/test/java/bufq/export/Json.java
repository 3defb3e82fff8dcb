package bufq.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader for the tests (RFC 8259: objects, arrays, strings with escapes, numbers,
 * literals): maps, lists, String, Long or Double, Boolean, null. Fails on anything else, and on text
 * after the value, so a test that reads a file back proves the file is JSON.
 */
final class Json {
    private final String s;
    private int i;

    private Json(String s) { this.s = s; }

    static Object parse(String text) {
        Json j = new Json(text);
        Object v = j.value();
        j.space();
        if (j.i != text.length()) throw j.error("text after the value");
        return v;
    }

    private Object value() {
        space();
        if (i >= s.length()) throw error("a value");
        char c = s.charAt(i);
        switch (c) {
            case '{' -> {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                space();
                if (peek('}')) return m;
                do {
                    space();
                    String k = string();
                    space();
                    expect(':');
                    if (m.put(k, value()) != null) throw error("a key used once, not '" + k + "' again");
                    space();
                } while (peek(','));
                expect('}');
                return m;
            }
            case '[' -> {
                i++;
                List<Object> l = new ArrayList<>();
                space();
                if (peek(']')) return l;
                do l.add(value()); while (peekAfterSpace(','));
                space();
                expect(']');
                return l;
            }
            case '"' -> { return string(); }
            default -> {
                for (String lit : new String[] {"true", "false", "null"}) {
                    if (s.startsWith(lit, i)) {
                        i += lit.length();
                        return lit.equals("null") ? null : Boolean.valueOf(lit);
                    }
                }
                int from = i;
                peek('-');
                while (i < s.length() && "0123456789.eE+-".indexOf(s.charAt(i)) >= 0) i++;
                String num = s.substring(from, i);
                if (!num.matches("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?")) throw error("a number, not '" + num + "'");
                return num.matches("-?\\d+") ? (Object) Long.parseLong(num) : (Object) Double.parseDouble(num);
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            if (i >= s.length()) throw error("the end of a string");
            char c = s.charAt(i++);
            if (c == '"') return b.toString();
            if (c < 0x20) throw error("no control character inside a string");
            if (c != '\\') { b.append(c); continue; }
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
                default -> throw error("a valid escape, not '\\" + e + "'");
            }
        }
    }

    private void space() { while (i < s.length() && " \t\n\r".indexOf(s.charAt(i)) >= 0) i++; }

    private boolean peek(char c) {
        if (i < s.length() && s.charAt(i) == c) { i++; return true; }
        return false;
    }

    private boolean peekAfterSpace(char c) { space(); return peek(c); }

    private void expect(char c) { if (!peek(c)) throw error("'" + c + "'"); }

    private IllegalArgumentException error(String expected) {
        return new IllegalArgumentException("JSON: expected " + expected + " at offset " + i);
    }
}
