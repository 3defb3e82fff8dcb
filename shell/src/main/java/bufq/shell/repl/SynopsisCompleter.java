package bufq.shell.repl;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Completion for a command's arguments read from its synopsis, so report commands (and commands
 * added later) complete without code here: {@code blame [by op_name|source|opcode] [depth N]} offers
 * {@code by} and {@code depth}, then {@code op_name}, {@code source}, {@code opcode} after {@code by}.
 * Lower-case words and {@code --flags} are literals; {@code a|b} are choices for the word after the
 * literal before them, or for a positional word ({@code export pprof|perfetto FILE}); upper-case words are placeholders: {@code FILE}/{@code PATH} ask for a path,
 * {@code MODULE}, {@code A}, {@code B} for a module handle, anything else for free text.
 */
final class SynopsisCompleter {
    /** What may come next. */
    enum Want { NOTHING, PATH, MODULE }

    /** @param words literals and choices to offer; @param want what else (paths, module handles) */
    record Next(List<String> words, Want want) {}

    private record Item(String text, boolean literal, List<String> choices) {}

    private final List<Item> items = new ArrayList<>();

    SynopsisCompleter(String synopsis) {
        String[] parts = synopsis.replace("[", " ").replace("]", " ").replace("...", " ").trim().split("\\s+");
        for (int i = 1; i < parts.length; i++) {  // parts[0] is the command's name
            String p = parts[i];
            if (p.isEmpty() || p.equals("|")) continue;
            // An upper-case choice ({@code at peak|STEP}) is a placeholder, not a word to offer.
            if (p.contains("|")) items.add(new Item(p, false, List.of(p.split("\\|")).stream().filter(SynopsisCompleter::isLiteral).toList()));
            else items.add(new Item(p, isLiteral(p), List.of()));
        }
    }

    private static boolean isLiteral(String p) {
        return p.startsWith("--") || !p.equals(p.toUpperCase(Locale.ROOT));
    }

    /** What to offer after {@code typed} (the arguments before the word being completed). */
    Next after(List<String> typed) {
        String prev = typed.isEmpty() ? null : typed.get(typed.size() - 1);
        for (int i = 0; prev != null && i + 1 < items.size(); i++) {
            Item it = items.get(i);
            if (!it.literal() || !it.text().equals(prev)) continue;
            Item next = items.get(i + 1);
            if (!next.choices().isEmpty()) return new Next(next.choices(), Want.NOTHING);
            if (!next.literal()) return new Next(List.of(), want(next.text()));
        }
        Set<String> words = new LinkedHashSet<>();
        Want want = Want.NOTHING;
        int placeholders = 0;
        for (Item it : items) {
            if (it.literal() && !typed.contains(it.text())) words.add(it.text());
            if (!it.literal() && !follows(it)) {
                // a positional placeholder, or a choice of words in its place ({@code export pprof|perfetto
                // FILE}): the first one not yet filled decides
                if (placeholders++ != positionals(typed)) continue;
                if (!it.choices().isEmpty()) words.addAll(it.choices());
                else if (want == Want.NOTHING) want = want(it.text());
            }
        }
        return new Next(new ArrayList<>(words), want);
    }

    /** Whether a placeholder is the value of the literal before it ({@code depth N}). */
    private boolean follows(Item it) {
        int i = items.indexOf(it);
        return i > 0 && items.get(i - 1).literal();
    }

    /** How many positional arguments were typed: words that are neither literals nor their values. */
    private int positionals(List<String> typed) {
        int n = 0;
        for (int i = 0; i < typed.size(); i++) {
            String w = typed.get(i);
            Item lit = literal(w);
            if (lit != null) {
                int k = items.indexOf(lit);
                if (k + 1 < items.size() && !items.get(k + 1).literal()) i++;  // skip its value
                continue;
            }
            n++;
        }
        return n;
    }

    private Item literal(String w) {
        for (Item it : items) if (it.literal() && it.text().equals(w)) return it;
        return null;
    }

    /** What a placeholder asks for; of a choice ({@code FILE|-}), what its first placeholder does. */
    private static Want want(String placeholder) {
        if (placeholder.contains("|")) {
            for (String p : placeholder.split("\\|")) if (want(p) != Want.NOTHING) return want(p);
            return Want.NOTHING;
        }
        return switch (placeholder) {
            case "FILE", "PATH", "DIR" -> Want.PATH;
            case "MODULE", "A", "B" -> Want.MODULE;
            default -> Want.NOTHING;
        };
    }
}
