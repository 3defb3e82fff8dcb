package bufq.shell.script;

import java.util.ArrayDeque;

/**
 * Tells whether a piece of JavaScript typed at the prompt is visibly unfinished, so the REPL and the
 * script reader ask for more lines. Pure Java: deciding this must not start the JavaScript engine.
 * It scans strings, template literals, comments and brackets; a regex literal is recognised only
 * after an operator or an opening bracket (enough for a prompt, not a full lexer).
 */
public final class JsSource {
    private JsSource() {}

    /** True when {@code code} has an open bracket, string, template or block comment, or ends in {@code \}. */
    public static boolean incomplete(String code) {
        int depth = 0;
        char prevSignificant = '(';
        int n = code.length();
        int i = 0;
        ArrayDeque<Integer> templateDepths = new ArrayDeque<>();
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
                if (code.charAt(j) == '\n') return false; // an unterminated string on one line is an error, not more input
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
