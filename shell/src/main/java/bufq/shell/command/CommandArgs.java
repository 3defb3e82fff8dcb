package bufq.shell.command;

import bufq.analysis.liveness.Steps;
import bufq.model.HloModule;
import bufq.model.MemorySpace;
import bufq.shell.session.CommandException;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * Keyword arguments of the report commands, taken in any order: {@code color 1} (or {@code space vmem}), {@code width 100},
 * {@code --svg FILE}, {@code --force}. Each getter consumes what it reads; {@link #done} rejects
 * leftovers so typos are errors, not silently ignored.
 */
final class CommandArgs {
    private final List<String> words;
    private final String usage;

    CommandArgs(List<String> words, String usage) {
        this.words = new ArrayList<>(words);
        this.usage = usage;
    }

    boolean flag(String name) {
        return words.remove(name);
    }

    /** The word after {@code keyword}, or null when the keyword is absent. */
    String value(String keyword) throws CommandException {
        int i = words.indexOf(keyword);
        if (i < 0) return null;
        if (i + 1 >= words.size()) throw new CommandException("'" + keyword + "' needs a value; usage: " + usage);
        String v = words.get(i + 1);
        words.remove(i + 1);
        words.remove(i);
        return v;
    }

    OptionalInt integer(String keyword, int min) throws CommandException {
        return integer(keyword, min, Integer.MAX_VALUE);
    }

    /** As {@link #integer(String, int)}, also refusing numbers above {@code max}. */
    OptionalInt integer(String keyword, int min, int max) throws CommandException {
        String v = value(keyword);
        if (v == null) return OptionalInt.empty();
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) return OptionalInt.of(n);
        } catch (NumberFormatException e) {
            // fall through
        }
        String range = max == Integer.MAX_VALUE ? ">= " + min : "from " + min + " to " + max;
        throw new CommandException("'" + keyword + "' takes a whole number " + range + ", not '" + v + "'");
    }

    /**
     * {@code color N} or {@code space NAME} ({@code space vmem}, {@code space 1}, {@code space hbm})
     * checked against the module's memory spaces, so a typo is a one-line error; empty when neither
     * is given (the device memory, colour 0).
     */
    OptionalInt color(HloModule m) throws CommandException {
        return color(m, integer("color", 0), value("space"));
    }

    /**
     * A colour given as {@code color N} or a memory space as {@code space NAME} (null when absent),
     * checked against the module's colours.
     */
    static OptionalInt color(HloModule m, OptionalInt c, String space) throws CommandException {
        if (space != null) {
            if (c.isPresent()) throw new CommandException("give 'color N' or 'space NAME', not both");
            c = MemorySpace.byName(m, space);
            if (c.isEmpty()) throw new CommandException("no memory space '" + space + "' in " + m.handle()
                    + " (memory spaces: " + MemorySpace.list(m) + ")");
        }
        try {
            Steps.requireColor(m, c);
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
        return c;
    }

    /** {@code limit N}: at most N rows a table, as on queries; empty when absent. */
    OptionalInt limit() throws CommandException {
        return integer("limit", 0);
    }

    /**
     * {@code outputs} with every table cut to its first {@code limit} rows, in every format (as a
     * query's limit is), a note saying how many more there are; text (a tree, a chart) as it is.
     */
    static List<Output> limited(List<? extends Output> outputs, OptionalInt limit) {
        List<Output> out = new ArrayList<>(outputs.size());
        for (Output o : outputs) {
            if (limit.isPresent() && o instanceof Table t && t.size() > limit.getAsInt()) {
                int n = limit.getAsInt(), more = t.size() - n;
                o = new Table(t.title(), t.columns(), t.rows().subList(0, n), t.notes())
                        .withNote(more + " more row" + (more == 1 ? "" : "s") + " (limit " + n + "; a larger limit shows them)");
            }
            out.add(o);
        }
        return out;
    }

    /** The next positional word (not a keyword), or null. */
    String positional() {
        return words.isEmpty() ? null : words.remove(0);
    }

    void done() throws CommandException {
        if (!words.isEmpty())
            throw new CommandException("unexpected '" + words.get(0) + "'; usage: " + usage);
    }

    static String lower(String s) { return s.toLowerCase(Locale.ROOT); }
}
