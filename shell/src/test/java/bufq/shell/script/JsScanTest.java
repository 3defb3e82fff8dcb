package bufq.shell.script;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The incremental scan agrees with scanning the whole text: code cut into random pieces (fixed seed
 * and count; -Dbufq.fuzz.seed=N replays) gives, after every piece, the answer for all of it so far.
 */
class JsScanTest {
    static final String[] CODE = {
            "js [1,", "2,", "'a\\", "b'", "`x ${", "y}`", "/* c", "*/ d", "// e \\", "f(", "/re[/]x/.test(s)", ")",
            "a / b", "{", "}", "\"s", "t\"", "`", "${ {a: 1} }", "`", "x \\", "'\\''", "(/=/)", "[", "]", "\\"};

    @Test
    void piecesGiveTheSameAnswerAsTheWhole() {
        long seed = Long.getLong("bufq.fuzz.seed", 20261201L);
        Random r = new Random(seed);
        for (int n = 0; n < 2000; n++) {
            JsSource.Scan scan = new JsSource.Scan();
            StringBuilder all = new StringBuilder();
            int pieces = 1 + r.nextInt(8);
            for (int p = 0; p < pieces; p++) {
                String piece = (p == 0 ? "" : r.nextBoolean() ? "\n" : " ") + CODE[r.nextInt(CODE.length)];
                // Cut the piece once more at a random spot, as a line break might.
                int cut = r.nextInt(piece.length() + 1);
                scan.add(piece.substring(0, cut));
                scan.add(piece.substring(cut));
                all.append(piece);
                assertEquals(oldIncomplete(all.toString()), scan.incomplete(), "seed " + seed + ", case " + n + ": " + all);
            }
        }
    }

    /** The whole-text scan bufq used before (JsSource as it was), the reference. */
    static boolean oldIncomplete(String code) {
        int depth = 0;
        char prevSignificant = '(';
        int n = code.length();
        int i = 0;
        java.util.ArrayDeque<Integer> templateDepths = new java.util.ArrayDeque<>();
        while (i < n) {
            char c = code.charAt(i);
            if (c == '/' && i + 1 < n && code.charAt(i + 1) == '/') {
                while (i < n && code.charAt(i) != '\n') i++;
                continue;
            }
            if (c == '/' && i + 1 < n && code.charAt(i + 1) == '*') {
                int end = code.indexOf("*/", i + 2);
                if (end < 0) return true;
                i = end + 2;
                continue;
            }
            if (c == '\'' || c == '"') {
                int j = i + 1;
                while (j < n && code.charAt(j) != c && code.charAt(j) != '\n') j += code.charAt(j) == '\\' ? 2 : 1;
                if (j >= n) return true;
                if (code.charAt(j) == '\n') return false;
                i = j + 1;
                prevSignificant = 'a';
                continue;
            }
            if (c == '`' || (c == '}' && !templateDepths.isEmpty() && templateDepths.peek() == depth)) {
                if (c == '}') templateDepths.pop();
                int j = i + 1;
                boolean resumed = false;
                while (j < n) {
                    char d = code.charAt(j);
                    if (d == '\\') { j += 2; continue; }
                    if (d == '`') break;
                    if (d == '$' && j + 1 < n && code.charAt(j + 1) == '{') {
                        templateDepths.push(depth);
                        i = j + 2;
                        resumed = true;
                        break;
                    }
                    j++;
                }
                if (resumed) { prevSignificant = '('; continue; }
                if (j >= n) return true;
                i = j + 1;
                prevSignificant = 'a';
                continue;
            }
            if (c == '/' && "(,=:[!&|?{};+-*%<>~^".indexOf(prevSignificant) >= 0) {
                int j = i + 1;
                boolean inClass = false;
                while (j < n && code.charAt(j) != '\n') {
                    char d = code.charAt(j);
                    if (d == '\\') { j += 2; continue; }
                    if (d == '[') inClass = true;
                    else if (d == ']') inClass = false;
                    else if (d == '/' && !inClass) break;
                    j++;
                }
                i = Math.min(j + 1, n);
                prevSignificant = 'a';
                continue;
            }
            if (c == '(' || c == '[' || c == '{') depth++;
            else if (c == ')' || c == ']' || c == '}') depth--;
            if (!Character.isWhitespace(c)) prevSignificant = Character.isLetterOrDigit(c) || c == '_' || c == '$' ? 'a' : c;
            i++;
        }
        if (depth > 0 || !templateDepths.isEmpty()) return true;
        String t = code.stripTrailing();
        return t.endsWith("\\");
    }
}
