package bufq.analysis.fit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which arrays stay after the program that made or took them: {@code keep SPEC, ...} (only those;
 * by default every program's parameters and outputs) less {@code drop SPEC, ...}. A SPEC is
 * {@code all}, {@code none}, {@code parameters}, {@code outputs}, a program's handle (all its
 * arrays), {@code HANDLE:parameters}, {@code HANDLE:outputs} or {@code HANDLE:N} (allocation N).
 */
public final class Keep {
    public static final Keep ALL = new Keep(List.of("all"), List.of());

    private final List<String> keep, drop;
    /** Drop specs naming one array ({@code PROGRAM:N}), looked up in a set: a long drop list stays linear. */
    private final Set<String> dropNames = new HashSet<>();
    private final List<String> dropOthers = new ArrayList<>();

    public Keep(List<String> keep, List<String> drop) {
        this.keep = keep.isEmpty() ? List.of("all") : List.copyOf(keep);
        this.drop = List.copyOf(drop);
        for (String s : this.drop) (s.matches(".*:\\d+") ? dropNames : dropOthers).add(s);
    }

    public List<String> keep() { return keep; }
    public List<String> drop() { return drop; }

    public Keep dropping(List<String> more) {
        List<String> d = new ArrayList<>(drop);
        d.addAll(more);
        return new Keep(keep, d);
    }

    /** Whether {@code a} stays after its program ran. */
    public boolean keeps(HeldArray a) {
        return keep.stream().anyMatch(s -> matches(s, a)) && !dropNames.contains(a.name())
                && dropOthers.stream().noneMatch(s -> matches(s, a));
    }

    /**
     * Every SPEC names at least one array of {@code programs}.
     *
     * @throws IllegalArgumentException naming the SPEC that matches none and what was expected
     */
    public void check(List<Program> programs) {
        Set<String> words = Set.of("all", "none", "parameters", "outputs");
        // names and handles looked up in sets: a drop list of thousands of arrays stays linear
        Set<String> names = new HashSet<>(), handles = new HashSet<>();
        for (Program p : programs) {
            handles.add(p.handle());
            for (HeldArray a : p.arrays()) names.add(a.name());
        }
        for (String s : concat()) {
            if (words.contains(s.toLowerCase(Locale.ROOT)) || names.contains(s) || handles.contains(s)) continue;
            boolean found = programs.stream().flatMap(p -> p.arrays().stream()).anyMatch(a -> matches(s, a));
            if (!found)
                throw new IllegalArgumentException("'" + s + "' names no array of these programs; expected all, none,"
                        + " parameters, outputs, a program, PROGRAM:parameters, PROGRAM:outputs or PROGRAM:N"
                        + " (an allocation kept by that program)");
        }
    }

    private List<String> concat() {
        List<String> all = new ArrayList<>(keep);
        all.addAll(drop);
        return all;
    }

    static boolean matches(String spec, HeldArray a) {
        switch (spec.toLowerCase(Locale.ROOT)) {
            case "all" -> { return true; }
            case "none" -> { return false; }
            case "parameters" -> { return a.isParameter(); }
            case "outputs" -> { return a.isOutput(); }
            default -> { }
        }
        if (spec.equals(a.program())) return true;
        int colon = spec.lastIndexOf(':');
        if (colon < 0 || !spec.substring(0, colon).equals(a.program())) return false;
        String what = spec.substring(colon + 1);
        return switch (what.toLowerCase(Locale.ROOT)) {
            case "parameters" -> a.isParameter();
            case "outputs" -> a.isOutput();
            default -> what.equals(Integer.toString(a.allocation()));
        };
    }

    /** How {@code fit} writes these options back: the words after the programs. */
    public String text() {
        StringBuilder b = new StringBuilder();
        if (!keep.equals(List.of("all"))) b.append(" keep ").append(String.join(", ", keep));
        if (!drop.isEmpty()) b.append(" drop ").append(String.join(", ", drop));
        return b.toString();
    }
}
