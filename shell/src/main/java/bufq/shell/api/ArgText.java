package bufq.shell.api;

import bufq.lang.Diagnostic;
import bufq.lang.NearNames;
import bufq.shell.api.ParsedArgs.Word;

import java.util.ArrayList;
import java.util.List;

/** The text side of {@link ArgGrammar}: its words with their spans, and one error from several forms' errors. */
final class ArgText {
    private ArgText() {}

    /**
     * Splits as the shell splits words (blanks separate, double quotes group), keeping where each is;
     * never fails: a quote left open runs to the end, its word's start put in {@code unterminated[0]}.
     */
    static List<Word> words(String text, int[] unterminated) {
        List<Word> out = new ArrayList<>();
        int i = 0, n = text.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(text.charAt(i))) i++;
            if (i >= n) break;
            int start = i;
            StringBuilder w = new StringBuilder();
            while (i < n && !Character.isWhitespace(text.charAt(i))) {
                char c = text.charAt(i);
                if (c != '"') {
                    w.append(c);
                    i++;
                    continue;
                }
                int j = i + 1;
                for (; j < n && text.charAt(j) != '"'; j++) {
                    char q = text.charAt(j);
                    if (q == '\\' && j + 1 < n && (text.charAt(j + 1) == '"' || text.charAt(j + 1) == '\\')) q = text.charAt(++j);
                    w.append(q);
                }
                if (j >= n && unterminated[0] < 0) unterminated[0] = start;
                i = Math.min(n, j + 1);
            }
            out.add(new Word(w.toString(), start, i));
        }
        return out;
    }

    /**
     * The forms' errors at one spot as one: what each expected, together ("expected 'at N' or
     * 'fit'"), else the message of the one with the most suggestions; every suggestion, nearest first.
     */
    static Diagnostic merged(String text, List<Diagnostic> errors, String tail) {
        Diagnostic best = errors.get(0);
        List<String> expected = new ArrayList<>(), near = new ArrayList<>();
        for (Diagnostic d : errors) {
            if (d.suggestions().size() > best.suggestions().size()) best = d;
            for (String s : d.suggestions()) if (!near.contains(s)) near.add(s);
            if (d.message().startsWith("expected ") && d.message().endsWith(tail))
                for (String e : d.message().substring("expected ".length(), d.message().length() - tail.length()).split(" or "))
                    if (!expected.contains(e)) expected.add(e);
        }
        String message = expected.size() > 1 ? "expected " + String.join(" or ", expected) + tail : best.message();
        String typed = best.end() <= text.length() ? text.substring(best.start(), best.end()) : "";
        near.sort((x, y) -> Integer.compare(NearNames.distance(typed, x, 64), NearNames.distance(typed, y, 64)));
        return new Diagnostic(best.start(), best.end(), message, near.size() > 3 ? near.subList(0, 3) : near);
    }

    static ArgumentError error(int start, int end, String message) { return error(start, end, message, List.of()); }

    static ArgumentError error(int start, int end, String message, List<String> near) {
        return new ArgumentError(new Diagnostic(start, end, message, near));
    }
}
