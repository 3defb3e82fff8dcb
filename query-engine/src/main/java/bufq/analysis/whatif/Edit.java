package bufq.analysis.whatif;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One change a what-if makes to a copy of a module's live ranges or sizes. Selections are the
 * query language's {@code where} conditions on values, kept as text with their place in the
 * statement so errors point into it, or (for edits a program builds, as {@code advise}'s rules do)
 * the values themselves by id. Immutable.
 */
public sealed interface Edit {
    /** The edit as the user wrote it (one {@code ;}-separated part), or as {@link #written} writes a built one. */
    String text();

    /** The condition selecting the values it changes; null for {@code tiling} and {@code donate NAME}. */
    Where where();

    /**
     * The edit as a statement with {@code condition} for its selection ({@code scale where COND by
     * 0.5}): how a built edit is printed once its values are named by what they share.
     */
    String written(String condition);

    /**
     * A {@code where} condition on values and where it starts in the whole statement; {@code ids}
     * non-null when the edit was built for exactly those values (the condition then says the same).
     */
    record Where(String condition, int offset, List<Long> ids) {
        public Where {
            ids = ids == null ? null : List.copyOf(ids);
        }

        public Where(String condition, int offset) { this(condition, offset, null); }

        /** Exactly the values of these ids, in this order; at least one. */
        public static Where ofIds(List<Long> ids) {
            if (ids.isEmpty()) throw new IllegalArgumentException("a selection of no values");
            String c = ids.size() == 1 ? "id = " + ids.get(0)
                    : "id in (" + ids.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")";
            return new Where(c, 0, ids);
        }

        /** A condition as a program writes it (its errors point into the built edit's text). */
        public static Where of(String condition) { return new Where(condition, 0, null); }

        Where at(int offset) { return new Where(condition, offset, ids); }
    }

    /** {@code drop where EXPR}: the values are not materialised at all. */
    record Drop(String text, Where where) implements Edit {
        public static Drop of(Where w) { return new Drop("drop where " + w.condition(), w.at("drop where ".length())); }
        @Override public String written(String c) { return "drop where " + c; }
    }

    /**
     * {@code end where EXPR at last_use | STEP | INSTRUCTION}: ranges end earlier (never later);
     * {@code step} is -1 with {@code instruction} null for {@code last_use}.
     */
    record End(String text, Where where, long step, String instruction, int targetOffset) implements Edit {
        public boolean atLastUse() { return step < 0 && instruction == null; }
        @Override public String written(String c) {
            return "end where " + c + " at " + (atLastUse() ? "last_use" : instruction != null ? instruction : Long.toString(step));
        }
    }

    /**
     * {@code donate NAME} or {@code donate where EXPR}: parameters end at their last use;
     * {@code parameterOffset} is where NAME starts in the statement (-1 without one).
     */
    record Donate(String text, Where where, String parameter, int parameterOffset) implements Edit {
        public static Donate of(Where w) {
            Where at = w.at("donate where ".length());
            return new Donate("donate where " + w.condition(), at, null, -1);
        }
        @Override public String written(String c) { return parameter != null ? "donate " + parameter : "donate where " + c; }
    }

    /** {@code scale where EXPR by F}: sizes times {@code factor} (0.5 for f32 to bf16). */
    record Scale(String text, Where where, double factor) implements Edit {
        public static Scale of(Where w, double factor) {
            return new Scale("scale where " + w.condition() + " by " + Edit.factor(factor), w.at("scale where ".length()), factor);
        }
        @Override public String written(String c) { return "scale where " + c + " by " + Edit.factor(factor); }
    }

    /** {@code size where EXPR = N}: sizes set to {@code bytes}. */
    record Resize(String text, Where where, long bytes) implements Edit {
        public static Resize of(Where w, long bytes) {
            return new Resize("size where " + w.condition() + " = " + bytes, w.at("size where ".length()), bytes);
        }
        @Override public String written(String c) { return "size where " + c + " = " + bytes; }
    }

    /**
     * {@code remat where EXPR}: each value is freed after its last use before the peak and made
     * again for its first use after it (the idle stretch around the peak disappears).
     */
    record Remat(String text, Where where) implements Edit {
        public static Remat of(Where w) { return new Remat("remat where " + w.condition(), w.at("remat where ".length())); }
        @Override public String written(String c) { return "remat where " + c; }
    }

    /** {@code tiling NAME}: every value sized by another tiling model; {@code offset} is where the name starts in the statement. */
    record Tiling(String text, String name, int offset) implements Edit {
        @Override public Where where() { return null; }
        @Override public String written(String c) { return "tiling " + name; }
    }

    /** Edits as one statement, {@code ; }-separated, each as {@link #text}. */
    public static String join(List<Edit> edits) {
        return edits.stream().map(Edit::text).collect(Collectors.joining("; "));
    }

    /** A factor as people write it: {@code 0.5}, {@code 0.25}, {@code 0.125}, never {@code 0.500000}. */
    public static String factor(double d) {
        String s = String.format(Locale.ROOT, "%.6f", d);
        return s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
