package bufq.shell.api;

import bufq.eval.Step;
import bufq.lang.Diagnostic;
import bufq.lang.NearNames;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.shell.session.CommandException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A command's arguments declared as data, the way {@code Setting} declares settings: keyword
 * arguments in any order ({@code by source}, {@code depth 3}, {@code at fusion.1}), flags
 * ({@code --force}) and their value kinds. One parse with spans: a word that is not the grammar's
 * gets a caret under it and a "did you mean" ({@link ArgumentError}), as a query's error does; the
 * synopsis {@code help} prints and completion follows is made from the same declaration.
 */
public final class ArgGrammar {
    /** What a keyword's value is; the placeholder the synopsis shows for it. */
    public enum Kind {
        /** A whole number in {@code [min, max]}. */
        COUNT("N"),
        /** {@code peak}, {@code claimed_peak}, a step number or a scheduled instruction's name, resolved against a module when run. */
        STEP("STEP"),
        /** A share: a percentage ({@code 20%}) or a fraction ({@code 0.2}). */
        SHARE("P"),
        /** A byte size ({@code 16GiB}). */
        SIZE("SIZE"),
        /** A loaded module's handle. */
        MODULE("MODULE"),
        /** A memory space: its name ({@code vmem}, {@code hbm}) or colour, resolved against a module when run. */
        SPACE("NAME"),
        /** A file name. */
        FILE("FILE"),
        /** A query condition. */
        CONDITION("CONDITION"),
        /** One of the argument's choices. */
        CHOICE(""),
        /** A flag: no value. */
        FLAG("");

        final String placeholder;

        Kind(String placeholder) { this.placeholder = placeholder; }
    }

    /**
     * One keyword argument.
     *
     * @param word    the keyword ({@code by}, {@code --force})
     * @param kind    its value's kind
     * @param choices the words a {@link Kind#CHOICE} takes, or the named values a {@link Kind#STEP} takes besides a step
     * @param min     the least a {@link Kind#COUNT} takes
     * @param max     the most a {@link Kind#COUNT} takes
     * @param aliases other words a {@link Kind#CHOICE} takes, which neither the synopsis nor an error lists
     * @param unlisted  choices an error names but the synopsis leaves out, to keep it on one line
     */
    public record Arg(String word, Kind kind, List<String> choices, int min, int max, List<String> aliases,
                      List<String> unlisted) {
        public Arg {
            choices = List.copyOf(choices);
            aliases = List.copyOf(aliases);
            unlisted = List.copyOf(unlisted);
        }

        /** {@code by op_name|source}, {@code depth N}, {@code at claimed_peak|STEP}, {@code --force}. */
        String synopsis() {
            if (kind == Kind.FLAG) return word;
            String value = kind == Kind.CHOICE ? String.join("|", choices)
                    : (choices.isEmpty() ? "" : String.join("|", choices) + "|") + kind.placeholder;
            return word + " " + value;
        }
    }

    private final String command;
    private final List<Arg> args;

    private ArgGrammar(String command, List<Arg> args) {
        this.command = command;
        this.args = List.copyOf(args);
    }

    /** A grammar for {@code command}, with no argument yet. */
    public static ArgGrammar of(String command) { return new ArgGrammar(command, List.of()); }

    private ArgGrammar with(Arg a) {
        List<Arg> all = new ArrayList<>(args);
        all.add(a);
        return new ArgGrammar(command, all);
    }

    /** {@code word} followed by one of {@code choices}. */
    public ArgGrammar choice(String word, String... choices) { return choice(word, List.of(choices), List.of()); }

    /** {@code word} followed by one of {@code choices} or of {@code aliases} (accepted, not listed). */
    public ArgGrammar choice(String word, List<String> choices, List<String> aliases) {
        return choice(word, choices, List.of(), aliases);
    }

    /** As {@link #choice(String, List, List)}, with {@code unlisted} choices an error names and the synopsis does not. */
    public ArgGrammar choice(String word, List<String> choices, List<String> unlisted, List<String> aliases) {
        return with(new Arg(word, Kind.CHOICE, choices, 0, 0, aliases, unlisted));
    }

    /** {@code word N}, N a whole number from {@code min} up. */
    public ArgGrammar count(String word, int min) { return count(word, min, Integer.MAX_VALUE); }

    /** {@code word N}, N a whole number in {@code [min, max]}. */
    public ArgGrammar count(String word, int min, int max) { return with(new Arg(word, Kind.COUNT, List.of(), min, max, List.of(), List.of())); }

    /** {@code word STEP}; {@code named} are the step names the synopsis lists ({@code claimed_peak}). */
    public ArgGrammar step(String word, String... named) { return with(new Arg(word, Kind.STEP, List.of(named), 0, 0, List.of(), List.of())); }

    /** {@code word VALUE} of another kind (size, module, memory space, file, condition). */
    public ArgGrammar value(String word, Kind kind) { return with(new Arg(word, kind, List.of(), 0, 0, List.of(), List.of())); }

    /** A flag such as {@code --force}. */
    public ArgGrammar flag(String word) { return with(new Arg(word, Kind.FLAG, List.of(), 0, 0, List.of(), List.of())); }

    /** The arguments, in the order the synopsis lists them. */
    public List<Arg> args() { return args; }

    /** The usage line: {@code blame [by op_name|source] [depth N] [at claimed_peak|STEP] [limit N]}. */
    public String synopsis() {
        StringBuilder b = new StringBuilder(command);
        for (Arg a : args) b.append(" [").append(a.synopsis()).append(']');
        return b.toString();
    }

    /** A word of the arguments and where it starts and ends in them. */
    public record Word(String text, int start, int end) {}

    /**
     * Parses {@code text}, a command's arguments, once. Errors span the word at fault in
     * {@code text}; the runner shows them under the statement.
     */
    public Parsed parse(String text) throws ArgumentError {
        List<Word> words = words(text);
        Map<String, Word> values = new LinkedHashMap<>();
        for (int i = 0; i < words.size(); i++) {
            Word w = words.get(i);
            Arg a = arg(w.text());
            if (a == null) {
                List<String> keywords = new ArrayList<>();
                for (Arg k : args) keywords.add(k.word());
                throw new ArgumentError(new Diagnostic(w.start(), w.end(), "unexpected '" + w.text() + "'; usage: " + synopsis(),
                        NearNames.near(w.text(), keywords)));
            }
            if (values.containsKey(a.word()))
                throw new ArgumentError(new Diagnostic(w.start(), w.end(), "'" + a.word() + "' given twice; usage: " + synopsis()));
            if (a.kind() == Kind.FLAG) {
                values.put(a.word(), w);
                continue;
            }
            if (i + 1 >= words.size())
                throw new ArgumentError(new Diagnostic(text.length(), text.length() + 1, "'" + a.word() + "' needs a value; usage: " + synopsis()));
            Word v = words.get(++i);
            check(a, v);
            values.put(a.word(), v);
        }
        return new Parsed(values);
    }

    private Arg arg(String word) {
        for (Arg a : args) if (a.word().equals(word)) return a;
        return null;
    }

    private void check(Arg a, Word v) throws ArgumentError {
        switch (a.kind()) {
            case CHOICE -> {
                String lower = v.text().toLowerCase(Locale.ROOT);
                if (a.choices().contains(lower) || a.unlisted().contains(lower) || a.aliases().contains(lower)) return;
                List<String> quoted = new ArrayList<>(a.choices());
                quoted.addAll(a.unlisted());
                String list = quoted.size() == 1 ? quoted.get(0)
                        : String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.get(quoted.size() - 1);
                throw new ArgumentError(new Diagnostic(v.start(), v.end(), command + " " + a.word() + " takes " + list
                        + ", not '" + v.text() + "'", NearNames.near(v.text(), quoted)));
            }
            case COUNT -> {
                try {
                    int n = Integer.parseInt(v.text());
                    if (n >= a.min() && n <= a.max()) return;
                } catch (NumberFormatException e) {
                    // the message below says what is expected
                }
                String range = a.max() == Integer.MAX_VALUE ? ">= " + a.min() : "from " + a.min() + " to " + a.max();
                throw new ArgumentError(new Diagnostic(v.start(), v.end(), "'" + a.word() + "' takes a whole number " + range
                        + ", not '" + v.text() + "'"));
            }
            default -> { }   // steps resolve against a module when the command runs
        }
    }

    /** Splits as the shell splits words (blanks separate, double quotes group), keeping where each is. */
    static List<Word> words(String text) throws ArgumentError {
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
                if (j >= n) throw new ArgumentError(new Diagnostic(i, n, "unterminated string"));
                i = j + 1;
            }
            out.add(new Word(w.toString(), start, i));
        }
        return out;
    }

    /** What {@link #parse} read: each keyword's value with its span. */
    public static final class Parsed {
        private final Map<String, Word> values;

        Parsed(Map<String, Word> values) { this.values = values; }

        /** Whether the flag or keyword {@code word} was given. */
        public boolean has(String word) { return values.containsKey(word); }

        /** The value given after {@code word} with its span, or null. */
        public Word word(String word) { return values.get(word); }

        /** The value given after {@code word}, or null. */
        public String text(String word) {
            Word w = values.get(word);
            return w == null ? null : w.text();
        }

        /**
         * The step given after {@code word} in {@code m} ({@link Step#resolve}: {@code peak},
         * {@code claimed_peak}, a number or a scheduled name), or {@code absent} when none was
         * given; a step that does not resolve is an error under the word.
         */
        public int step(String word, HloModule m, String absent) throws ArgumentError {
            Word w = values.get(word);
            if (w == null) w = new Word(absent, 0, 0);
            try {
                return Step.resolve(m, w.text());
            } catch (QueryException e) {
                Diagnostic d = e.diagnostic();
                throw new ArgumentError(new Diagnostic(w.start(), Math.max(w.end(), w.start() + 1), d.message(), d.suggestions()));
            }
        }

        /** The whole number given after {@code word}, checked when parsed. */
        public OptionalInt count(String word) {
            Word w = values.get(word);
            return w == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(w.text()));
        }
    }

    /** An argument that does not parse or resolve: a diagnostic whose span is in the command's arguments. */
    public static final class ArgumentError extends CommandException {
        private final transient Diagnostic diagnostic;

        public ArgumentError(Diagnostic diagnostic) {
            super(diagnostic.fullMessage());
            this.diagnostic = diagnostic;
        }

        /** Where and what, in the arguments' own columns. */
        public Diagnostic diagnostic() { return diagnostic; }

        /** The error drawn under {@code statement}, whose arguments start {@code at} characters into it. */
        public String render(String statement, int at) {
            Diagnostic d = diagnostic;
            return new Diagnostic(d.start() + at, d.end() + at, d.message(), d.suggestions()).render(statement);
        }
    }
}
