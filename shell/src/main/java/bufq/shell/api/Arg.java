package bufq.shell.api;

import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * One argument of an {@link ArgGrammar}.
 *
 * @param word        the keyword ({@code by}, {@code --force}); of a positional, its placeholder ({@code FILE})
 * @param kind        its value's kind
 * @param choices     the words a {@link ArgKind#CHOICE} takes, the named values a {@link ArgKind#STEP} takes besides a
 *                    step, or the entity a {@link ArgKind#CONDITION} selects from
 * @param min         the least a {@link ArgKind#COUNT} takes
 * @param max         the most a {@link ArgKind#COUNT} takes
 * @param aliases     other words a {@link ArgKind#CHOICE} takes, which neither the synopsis nor an error lists
 * @param unlisted    choices an error names but the synopsis leaves out, to keep it on one line
 * @param placeholder what the synopsis shows for the value ({@code W} in {@code width W})
 * @param positional  taken by its place, not after a keyword
 * @param required    must be given (positionals are, unless declared optional)
 * @param repeated    may be given more than once; each value is kept
 * @param runOn       its value is every word up to the next keyword, as typed ({@code where COND}, {@code keep SPEC, ...})
 * @param hidden      parsed but left out of the synopsis (the description says it)
 * @param group       of a group of which at most one is given ({@code color N | space NAME}), its number; else -1
 */
public record Arg(String word, ArgKind kind, List<String> choices, long min, long max, List<String> aliases,
                  List<String> unlisted, String placeholder, boolean positional, boolean required, boolean repeated,
                  boolean runOn, boolean hidden, int group) {
    public Arg {
        choices = List.copyOf(choices);
        aliases = List.copyOf(aliases);
        unlisted = List.copyOf(unlisted);
    }

    static Arg of(String word, ArgKind kind, List<String> choices, long min, long max, boolean positional) {
        return new Arg(word, kind, choices, min, max, List.of(), List.of(), kind.placeholder, positional, positional,
                false, kind == ArgKind.CONDITION, false, -1);
    }

    Arg with(String placeholder, boolean required, boolean repeated, boolean runOn, boolean hidden, int group) {
        return new Arg(word, kind, choices, min, max, aliases, unlisted, placeholder, positional, required, repeated, runOn, hidden, group);
    }

    /** Of a {@link ArgKind#CONDITION}, the entity it selects from ({@code values}); else null. */
    public String entity() { return kind == ArgKind.CONDITION && !choices.isEmpty() ? choices.get(0) : null; }

    /** The value as the synopsis shows it: {@code op_name|source}, {@code claimed_peak|STEP}, {@code N}. */
    String value() {
        if (kind == ArgKind.CHOICE) return String.join("|", choices);
        if (kind == ArgKind.CONDITION) return placeholder;
        return (choices.isEmpty() ? "" : String.join("|", choices) + "|") + placeholder;
    }

    /** {@code by op_name|source}, {@code depth N}, {@code --force}, {@code FILE}, {@code pprof|perfetto}. */
    String synopsis() {
        if (kind == ArgKind.FLAG) return word;
        if (positional) return value() + (repeated && !placeholder.endsWith("...") ? "..." : "");
        return word + " " + value();
    }

    /** The words this argument is named by in an error: {@code 'at N'}, {@code 'fit'}, {@code FILE}. */
    String named() {
        return positional ? value() : "'" + synopsis() + "'";
    }

    /**
     * The keyword of {@code args} that {@code word} is, as the parser reads it: in any case, and a
     * {@code --flag=value} by its flag; null for none.
     */
    public static Arg keyword(List<Arg> args, String word) {
        String w = word.toLowerCase(Locale.ROOT);
        int eq = w.indexOf('=');
        if (eq > 0 && w.startsWith("--")) w = w.substring(0, eq);
        for (Arg a : args) if (!a.positional() && a.word().equals(w)) return a;
        return null;
    }

    /** Another member of {@code a}'s group ({@code color N | space NAME}) that {@code given} holds, or null. */
    public static Arg rival(List<Arg> args, Arg a, Predicate<String> given) {
        if (a.group() < 0) return null;
        for (Arg m : args) if (m != a && m.group() == a.group() && given.test(m.word())) return m;
        return null;
    }
}
