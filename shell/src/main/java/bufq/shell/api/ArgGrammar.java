package bufq.shell.api;

import bufq.lang.Diagnostic;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A command's arguments declared as data, the way {@code Setting} declares settings: positional
 * arguments in order ({@code diff A B}, {@code export pprof|perfetto FILE}), keyword arguments in any
 * order ({@code by source}, {@code depth 3}, {@code at fusion.1}), flags ({@code --force}), groups of
 * which one is given ({@code color N | space NAME}), the rest of the line as typed ({@code js CODE}),
 * and forms of which one applies ({@code set NAME VALUE | set category ...}). One parse with spans:
 * a word that is not the grammar's gets a caret under it and a "did you mean" ({@link ArgumentError}),
 * as a query's error does; the synopsis {@code help} prints and completion follows is made from the
 * same declaration.
 */
public final class ArgGrammar {
    private final String command;
    private final List<Arg> args;
    private final List<ArgGrammar> forms;
    private final ArgGrammar parts;

    private ArgGrammar(String command, List<Arg> args, List<ArgGrammar> forms, ArgGrammar parts) {
        this.command = command;
        this.args = List.copyOf(args);
        this.forms = List.copyOf(forms);
        this.parts = parts;
    }

    /** A grammar for {@code command}, with no argument yet. */
    public static ArgGrammar of(String command) { return new ArgGrammar(command, List.of(), List.of(), null); }

    /**
     * A grammar of several forms of one command, each its own grammar ({@code forecast [DIM] at N
     * [limit K] | forecast chips (at N | fit)}): the arguments parse by the first form they fit;
     * when none fits, the error is the one that read furthest.
     */
    public static ArgGrammar forms(ArgGrammar... forms) {
        if (forms.length == 0) throw new IllegalArgumentException("no forms");
        return new ArgGrammar(forms[0].command, List.of(), List.of(forms), null);
    }

    /**
     * The rest of the line is parts separated by {@code ;}, each led by the name of one of {@code
     * each}'s forms ({@code whatif drop where COND; scale where COND by F}); the command parses them
     * (its language has other clients), help lists {@code each}'s forms and completion follows them.
     */
    public ArgGrammar parts(ArgGrammar each) { return new ArgGrammar(command, args, forms, each); }

    /** The grammar of each {@code ;}-separated part of the rest of the line; null when it is not in parts. */
    public ArgGrammar parts() { return parts; }

    /** The forms of which one applies, each its own grammar; empty for a grammar of one form. */
    public List<ArgGrammar> forms() { return forms; }

    /** The command's name. */
    public String command() { return command; }

    private ArgGrammar with(Arg a) {
        List<Arg> all = new ArrayList<>(args);
        all.add(a);
        return new ArgGrammar(command, all, forms, parts);
    }

    private ArgGrammar last(UnaryOperator<Arg> change) {
        if (args.isEmpty()) throw new IllegalStateException("no argument to change");
        List<Arg> all = new ArrayList<>(args);
        all.set(all.size() - 1, change.apply(all.get(all.size() - 1)));
        return new ArgGrammar(command, all, forms, parts);
    }

    /** {@code word} followed by one of {@code choices}. */
    public ArgGrammar choice(String word, String... choices) { return choice(word, List.of(choices), List.of()); }

    /** {@code word} followed by one of {@code choices} or of {@code aliases} (accepted, not listed). */
    public ArgGrammar choice(String word, List<String> choices, List<String> aliases) {
        return choice(word, choices, List.of(), aliases);
    }

    /** As {@link #choice(String, List, List)}, with {@code unlisted} choices an error names and the synopsis does not. */
    public ArgGrammar choice(String word, List<String> choices, List<String> unlisted, List<String> aliases) {
        return with(new Arg(word, ArgKind.CHOICE, choices, 0, 0, aliases, unlisted, "", false, false, false, false, false, -1));
    }

    /** {@code word N}, N a whole number from {@code min} up. */
    public ArgGrammar count(String word, long min) { return count(word, min, Integer.MAX_VALUE); }

    /** {@code word N}, N a whole number in {@code [min, max]}. */
    public ArgGrammar count(String word, long min, long max) { return with(Arg.of(word, ArgKind.COUNT, List.of(), min, max, false)); }

    /** {@code word STEP}; {@code named} are the step names the synopsis lists ({@code claimed_peak}). */
    public ArgGrammar step(String word, String... named) { return with(Arg.of(word, ArgKind.STEP, List.of(named), 0, 0, false)); }

    /** {@code word CONDITION}, a condition on {@code entity}'s rows ({@code where COND} on values). */
    public ArgGrammar condition(String word, String entity) { return with(Arg.of(word, ArgKind.CONDITION, List.of(entity), 0, 0, false)); }

    /** {@code word VALUE} of another kind (size, module, memory space, file, condition, text). */
    public ArgGrammar value(String word, ArgKind kind) { return with(Arg.of(word, kind, List.of(), 0, 0, false)); }

    /** A flag such as {@code --force}, or a literal word ({@code allocation}, {@code fit}). */
    public ArgGrammar flag(String word) { return with(Arg.of(word, ArgKind.FLAG, List.of(), 0, 0, false)); }

    /** A positional argument of {@code kind}, shown as {@code name} ({@code FILE}, {@code A}); required unless {@link #optional}. */
    public ArgGrammar positional(String name, ArgKind kind) {
        return with(Arg.of(name, kind, List.of(), 0, 0, true).with(name, true, false, false, false, -1));
    }

    /** A positional whole number in {@code [min, max]}, shown as {@code name}. */
    public ArgGrammar positionalCount(String name, long min, long max) {
        return with(Arg.of(name, ArgKind.COUNT, List.of(), min, max, true).with(name, true, false, false, false, -1));
    }

    /** A positional word that is one of {@code choices} ({@code export pprof|perfetto}); {@code name} names it in code. */
    public ArgGrammar positionalChoice(String name, List<String> choices, List<String> aliases) {
        return with(new Arg(name, ArgKind.CHOICE, choices, 0, 0, aliases, List.of(), "", true, true, false, false, false, -1));
    }

    /** The rest of the line as typed, shown as {@code shown} ({@code CODE}, {@code SELECT ...}); required unless {@link #optional}. */
    public ArgGrammar rest(String name, String shown) { return rest(name, shown, ArgKind.REST); }

    /** As {@link #rest(String, String)}, holding a {@code kind} that takes the rest of the line ({@link ArgKind#VALUE}). */
    public ArgGrammar rest(String name, String shown, ArgKind kind) {
        if (!kind.rest) throw new IllegalArgumentException(kind + " does not take the rest of the line");
        return with(Arg.of(name, kind, List.of(), 0, 0, true).with(shown, true, false, false, false, -1));
    }

    /** The last argument, shown in the synopsis as {@code placeholder} ({@code width W}, {@code --partition KEY=VALUE}). */
    public ArgGrammar as(String placeholder) { return last(a -> a.with(placeholder, a.required(), a.repeated(), a.runOn(), a.hidden(), a.group())); }

    /** The last argument may be left out. */
    public ArgGrammar optional() { return last(a -> a.with(a.placeholder(), false, a.repeated(), a.runOn(), a.hidden(), a.group())); }

    /** The last argument must be given ({@code forecast at N}). */
    public ArgGrammar required() { return last(a -> a.with(a.placeholder(), true, a.repeated(), a.runOn(), a.hidden(), a.group())); }

    /** The last argument may be given more than once ({@code --partition}, {@code PATH...}). */
    public ArgGrammar repeated() { return last(a -> a.with(a.placeholder(), a.required(), true, a.runOn(), a.hidden(), a.group())); }

    /** The last argument's value is every word up to the next keyword, as typed ({@code keep SPEC, ...}). */
    public ArgGrammar runOn() { return last(a -> a.with(a.placeholder(), a.required(), a.repeated(), true, a.hidden(), a.group())); }

    /** The last argument is parsed but not shown in the synopsis (its description says it). */
    public ArgGrammar hidden() { return last(a -> a.with(a.placeholder(), a.required(), a.repeated(), a.runOn(), true, a.group())); }

    /**
     * Arguments of which at most one is given ({@code [color N | space NAME]}), or exactly one when
     * {@code required} ({@code (at N | fit)}): those {@code members} declares on an empty grammar.
     */
    public ArgGrammar oneOf(boolean required, UnaryOperator<ArgGrammar> members) {
        int group = 0;
        for (Arg a : args) group = Math.max(group, a.group() + 1);
        ArgGrammar g = this;
        for (Arg a : members.apply(of(command)).args())
            g = g.with(a.with(a.placeholder(), required, a.repeated(), a.runOn(), a.hidden(), group));
        return g;
    }

    /** The arguments, in the order the synopsis lists them. */
    public List<Arg> args() { return args; }

    /** The usage line: {@code blame [by op_name|source] [depth N] [at claimed_peak|STEP] [limit N]}. */
    public String synopsis() {
        if (!forms.isEmpty()) {
            List<String> out = new ArrayList<>();
            for (ArgGrammar f : forms) out.add(f.synopsis());
            return String.join(" | ", out);
        }
        StringBuilder b = new StringBuilder(command);
        for (int i = 0; i < args.size(); i++) {
            Arg a = args.get(i);
            if (a.hidden()) continue;
            if (a.group() >= 0) {
                List<String> members = new ArrayList<>();
                int j = i;
                for (; j < args.size() && args.get(j).group() == a.group(); j++) members.add(args.get(j).synopsis());
                i = j - 1;
                b.append(a.required() ? " (" : " [").append(String.join(" | ", members)).append(a.required() ? ")" : "]");
                continue;
            }
            String s = a.synopsis();
            if (a.positional() && a.kind().rest && a.required()) b.append(' ').append(s);
            else if (a.positional() && a.repeated() && !a.required()) b.append(" [").append(a.value()).append(" ...]");
            else if (a.required()) b.append(' ').append(s);
            else if (a.positional() && i + 1 < args.size() && args.get(i + 1).positional() && !args.get(i + 1).required()
                    && !args.get(i + 1).hidden()) {
                // optional positionals nest: set [NAME [VALUE]]
                StringBuilder close = new StringBuilder("]");
                b.append(" [").append(s);
                while (i + 1 < args.size() && args.get(i + 1).positional() && !args.get(i + 1).required() && !args.get(i + 1).hidden()) {
                    b.append(" [").append(args.get(++i).synopsis());
                    close.append(']');
                }
                b.append(close);
            }
            else b.append(" [").append(s).append(']').append(a.repeated() && !a.placeholder().endsWith("...") ? "..." : "");
        }
        return b.toString();
    }

    /**
     * Parses {@code text}, a command's arguments, once. Errors span the word at fault in
     * {@code text}; the runner shows them under the statement.
     */
    public ParsedArgs parse(String text) throws ArgumentError {
        if (forms.isEmpty()) return new ArgParser(command, args, synopsis(), text, List.of()).parse();
        // a form led by a literal word (set category ...) before one led by a free word (set NAME ...)
        List<ArgGrammar> order = new ArrayList<>(forms);
        order.sort((x, y) -> Boolean.compare(!x.ledByChoice(), !y.ledByChoice()));
        List<String> reserved = new ArrayList<>();
        for (ArgGrammar f : forms) for (Arg a : f.args) if (!a.positional()) reserved.add(a.word());
        List<Diagnostic> furthest = new ArrayList<>();
        int strong = 0;
        for (ArgGrammar f : order) {
            try {
                return new ArgParser(f.command, f.args, f.synopsis(), text, reserved).parse();
            } catch (ArgumentError e) {
                Diagnostic o = e.diagnostic();
                Diagnostic d = new Diagnostic(o.start(), o.end(), o.message().replace("usage: " + f.synopsis(), "usage: " + synopsis()), o.suggestions());
                if (!furthest.isEmpty() && d.start() > furthest.get(0).start()) {
                    furthest.clear();
                    strong = 0;
                }
                // a form whose leading word is not the one typed says least: its error goes last
                boolean weak = f.ledByChoice() && o.message().startsWith(command + " takes ");
                if (furthest.isEmpty() || d.start() == furthest.get(0).start()) furthest.add(weak ? furthest.size() : strong++, d);
            }
        }
        throw new ArgumentError(ArgText.merged(text, furthest, "; usage: " + synopsis()));
    }

    private boolean ledByChoice() {
        for (Arg a : args) if (a.positional()) return a.kind() == ArgKind.CHOICE;
        return false;
    }
}
