package bufq.shell.repl;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Arg;
import bufq.shell.api.ArgKind;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What may come next in a command's arguments, read from its {@link ArgGrammar} (the declaration
 * that parses them and makes the synopsis), so every command completes without code here:
 * {@code blame [by op_name|source|...] [depth N]} offers {@code by} and {@code depth}, then the
 * choices after {@code by}; a value's kind says what else to offer (paths for a file, module
 * handles for a module, step names for a step, a query for a condition).
 */
final class GrammarCompleter {
    private GrammarCompleter() {}

    /**
     * @param words keywords, flags and choices to offer
     * @param value the argument whose value the word being completed is (or continues, for a
     *              condition), whose kind says what else to offer; null when none
     */
    record Next(List<String> words, Arg value) {
        /** The kind of value wanted, or null. */
        ArgKind want() { return value == null ? null : value.kind(); }
    }

    /** What to offer after {@code typed}, the arguments before the word being completed; of several forms, what any of them takes. */
    static Next after(ArgGrammar g, List<String> typed) { return after(g, typed, false); }

    /**
     * As {@link #after(ArgGrammar, List)}, for a part of a line in parts ({@code whatif}'s edits),
     * whose parser ends a condition only at a keyword followed by one last word ({@code end where
     * live at peak at last_use}): only a keyword just typed ends the condition here; one further
     * back may be the condition's own word, and both what the condition and the keywords take are offered.
     */
    static Next afterPart(ArgGrammar g, List<String> typed) { return after(g, typed, true); }

    private static Next after(ArgGrammar g, List<String> typed, boolean lastOnly) {
        if (g.forms().isEmpty()) return afterForm(g, typed, lastOnly);
        Set<String> words = new LinkedHashSet<>();
        Arg value = null;
        for (ArgGrammar f : g.forms()) {
            Next n = afterForm(f, typed, lastOnly);
            words.addAll(n.words());
            if (value == null) value = n.value();
        }
        return new Next(new ArrayList<>(words), value);
    }

    // arguments := ( keyword value? | positional )*, as ArgParser reads them, stopping at the cursor
    private static Next afterForm(ArgGrammar g, List<String> typed, boolean lastOnly) {
        List<Arg> positionals = new ArrayList<>();
        for (Arg a : g.args()) if (a.positional()) positionals.add(a);
        Set<String> given = new HashSet<>();
        Arg open = null;   // the argument the next word is the value of, or continues (a run-on value)
        int next = 0;
        for (int i = 0; i < typed.size(); i++) {
            String w = typed.get(i);
            Arg k = keyword(g, w);
            if (k != null && lastOnly && open != null && open.kind() == ArgKind.CONDITION && i < typed.size() - 1) k = null;
            if (k != null) {
                given.add(k.word());
                open = k.kind() == ArgKind.FLAG || (w.startsWith("--") && w.contains("=")) ? null : k;
                continue;
            }
            if (open != null) {
                if (!open.runOn()) open = null;
                continue;
            }
            if (next >= positionals.size()) continue;
            Arg p = positionals.get(next);
            if (p.kind().rest) return new Next(List.of(), p);   // the rest of the line: its kind decides
            given.add(p.word());
            if (p.runOn()) open = p;
            if (!p.repeated()) next++;
        }
        if (open != null && !open.runOn()) return new Next(open.kind() == ArgKind.CONDITION ? List.of() : open.choices(), open);
        Set<String> words = new LinkedHashSet<>();
        for (Arg a : g.args()) {
            if (a.positional() || a.hidden() || (given.contains(a.word()) && !a.repeated()) || groupTaken(g, a, given)) continue;
            words.add(a.word());
        }
        Arg value = open;
        if (value == null && next < positionals.size()) {
            Arg p = positionals.get(next);
            if (p.kind() == ArgKind.CHOICE) words.addAll(p.choices());
            else if (!p.hidden() && !groupTaken(g, p, given)) value = p;
        }
        return new Next(new ArrayList<>(words), value);
    }

    /** Whether another member of {@code a}'s group ({@code color N | space NAME}) was given. */
    private static boolean groupTaken(ArgGrammar g, Arg a, Set<String> given) {
        return Arg.rival(g.args(), a, given::contains) != null;
    }

    private static Arg keyword(ArgGrammar g, String word) { return Arg.keyword(g.args(), word); }
}
