package bufq.analysis.whatif;

import java.util.List;
import java.util.Locale;

/**
 * The edits a what-if takes, one constant each: the word that starts it, what follows the word, and
 * what it does. The one list of edits: {@link EditParser} parses these forms, and a client's grammar
 * for them (help, completion) is generated from it, so an edit is declared once.
 */
public enum EditForm {
    DROP("drop", "the values are not materialised", Part.WHERE),
    END("end", "ranges end at the last use, a step or an instruction", Part.WHERE, Part.AT),
    DONATE("donate", "parameters end at their last use (donate_argnums)", Part.PARAM_OR_WHERE),
    SCALE("scale", "sizes times F (0.5: f32 to bf16)", Part.WHERE, Part.BY),
    SIZE("size", "sizes set to SIZE (e.g. 4MiB)", Part.WHERE, Part.EQUALS),
    REMAT("remat", "freed after the last use before the peak, made again for the next use", Part.WHERE),
    TILING("tiling", "every value sized by another tiling model", Part.TILING);

    /** What follows an edit's word, in order. */
    public enum Part {
        /** {@code 'where' COND}: a condition on values. */
        WHERE,
        /** {@code 'at' (last_use | STEP | INSTRUCTION)}. */
        AT,
        /** {@code 'by' FACTOR}. */
        BY,
        /** {@code '=' SIZE}. */
        EQUALS,
        /** {@code NAME | 'where' COND}: a parameter by name, or a condition. */
        PARAM_OR_WHERE,
        /** {@code NAME}: a tiling model. */
        TILING
    }

    private final String word;
    private final String does;
    private final List<Part> parts;

    EditForm(String word, String does, Part... parts) {
        this.word = word;
        this.does = does;
        this.parts = List.of(parts);
    }

    /** The word that starts the edit ({@code drop}). */
    public String word() { return word; }

    /** What it does, in a line, for help. */
    public String does() { return does; }

    /** What follows the word, in order. */
    public List<Part> parts() { return parts; }

    /** The words that start an edit, in this order. */
    public static List<String> words() {
        return java.util.Arrays.stream(values()).map(EditForm::word).toList();
    }

    /** The edit {@code word} starts (any case), or null. */
    public static EditForm byWord(String word) {
        for (EditForm f : values()) if (f.word.equals(word.toLowerCase(Locale.ROOT))) return f;
        return null;
    }
}
