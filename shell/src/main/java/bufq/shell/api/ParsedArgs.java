package bufq.shell.api;

import bufq.api.Reports;
import bufq.eval.Step;
import bufq.lang.Diagnostic;
import bufq.lang.NearNames;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.MemorySpace;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What {@code ArgGrammar.parse} read: each argument's values with their spans, and the resolutions
 * that need the session (a step, a memory space, a name among the loaded ones), whose errors are
 * drawn under the word as a parse error is.
 */
public final class ParsedArgs {
    /** A word of the arguments and where it starts and ends in them. */
    public record Word(String text, int start, int end) {}

    private final Map<String, List<Word>> values;

    ParsedArgs(Map<String, List<Word>> values) {
        this.values = Map.copyOf(values);
    }

    /** Whether the flag, keyword or positional {@code word} was given. */
    public boolean has(String word) { return values.containsKey(word); }

    /** The (first) value given for {@code word} with its span, or null. */
    public Word word(String word) {
        List<Word> w = values.get(word);
        return w == null ? null : w.get(0);
    }

    /** Every value given for {@code word}, in order; empty when none. */
    public List<Word> words(String word) { return values.getOrDefault(word, List.of()); }

    /** The texts of {@link #words}. */
    public List<String> texts(String word) {
        List<String> out = new ArrayList<>();
        for (Word w : words(word)) out.add(w.text());
        return out;
    }

    /** The value given for {@code word}, or null. */
    public String text(String word) {
        Word w = word(word);
        return w == null ? null : w.text();
    }

    /** The whole number given for {@code word}, checked when parsed. */
    public OptionalInt count(String word) {
        Word w = word(word);
        return w == null ? OptionalInt.empty() : OptionalInt.of((int) (long) whole(w.text()));
    }

    /** As {@link #count}, for numbers past an int (a forecast's size). */
    public OptionalLong longCount(String word) {
        Word w = word(word);
        return w == null ? OptionalLong.empty() : OptionalLong.of(whole(w.text()));
    }

    /** The share given for {@code word} as a fraction, checked when parsed, or {@code absent}. */
    public double share(String word, double absent) {
        Word w = word(word);
        return w == null ? absent : share(w.text());
    }

    /**
     * The step given for {@code word} in {@code m} ({@link Step#resolve}: {@code peak},
     * {@code claimed_peak}, a number or a scheduled name), or {@code absent} when none was
     * given; a step that does not resolve is an error under the word.
     */
    public int step(String word, HloModule m, String absent) throws ArgumentError {
        Word w = word(word);
        if (w == null) w = new Word(absent, 0, 0);
        try {
            return Step.resolve(m, w.text());
        } catch (QueryException e) {
            Diagnostic d = e.diagnostic();
            throw new ArgumentError(new Diagnostic(w.start(), Math.max(w.end(), w.start() + 1), d.message(), d.suggestions()));
        }
    }

    /**
     * {@code color N} or {@code space NAME} ({@code space vmem}, {@code space 1}, {@code space hbm})
     * checked against {@code m}'s memory spaces, an error under the word naming them; empty when
     * neither is given (the device memory, colour 0).
     */
    public OptionalInt color(HloModule m) throws ArgumentError {
        OptionalInt c = count("color");
        Word space = word("space");
        if (space != null) {
            c = MemorySpace.byName(m, space.text());
            if (c.isEmpty()) {
                List<String> names = new ArrayList<>();
                for (int k : MemorySpace.colors(m)) names.add(MemorySpace.name(m, k));
                throw error("space", "no memory space '" + space.text() + "' in " + m.handle() + " (memory spaces: " + MemorySpace.list(m) + ")", names);
            }
        }
        try {
            Reports.checkColor(m, c);
        } catch (IllegalArgumentException e) {
            throw error(space != null ? "space" : "color", e.getMessage(), List.of());
        }
        return c;
    }

    /**
     * The error for {@code word}'s value: {@code message} under it (at the end of the arguments when
     * it was not given), with a "did you mean" among {@code candidates}. Returned for the caller to throw.
     */
    public ArgumentError error(String word, String message, Collection<String> candidates) {
        Word w = word(word);
        if (w == null) return new ArgumentError(new Diagnostic(0, 1, message));
        return new ArgumentError(new Diagnostic(w.start(), Math.max(w.end(), w.start() + 1), message, NearNames.near(w.text(), candidates)));
    }

    /** As {@link #error(String, String, Collection)}, under {@code part}, a piece of {@code word}'s value ({@code b} of {@code fit a, b}). */
    public ArgumentError error(String word, String part, String message, Collection<String> candidates) {
        Word w = word(word);
        int i = w == null ? -1 : w.text().indexOf(part);
        if (i < 0 || part.isEmpty()) return error(word, message, candidates);
        int start = w.start() + i;
        return new ArgumentError(new Diagnostic(start, start + part.length(), message, NearNames.near(part, candidates)));
    }

    /** {@code 1024}, {@code 1_024} or {@code 1,024}; null when not a whole number. */
    static Long whole(String text) {
        try {
            return Long.parseLong(text.replace("_", "").replace(",", ""));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** {@code 20%} or {@code 0.2} as a fraction; -1 when it is neither. */
    static double share(String text) {
        boolean percent = text.endsWith("%");
        try {
            double v = Double.parseDouble(percent ? text.substring(0, text.length() - 1) : text);
            if (percent) v /= 100;
            if (v >= 0 && v <= 1 && !text.startsWith("+")) return v;
        } catch (NumberFormatException e) {
            // neither
        }
        return -1;
    }
}
