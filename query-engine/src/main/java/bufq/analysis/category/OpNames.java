package bufq.analysis.category;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How JAX's {@code op_name} reads: a {@code /} path of transforms and primitives
 * ({@code jit(step)/transpose(jvp())/dot_general}), or for an entry parameter the pytree path of the
 * argument ({@code params[0]['wq']}, {@code opt_state[0].mu[3]['w1']}, {@code state.params['Dense_0']}).
 * The one place that says which pass an op_name belongs to.
 */
public final class OpNames {
    private OpNames() {}

    /** Splits at {@code /} outside parentheses and brackets: {@code jit(f)/jvp(a/b)/div} has three parts. */
    static List<String> split(String op) {
        List<String> parts = new ArrayList<>();
        int depth = 0, from = 0;
        for (int i = 0; i < op.length(); i++) {
            char c = op.charAt(i);
            if (c == '(' || c == '[' || c == '{') depth++;
            else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
            else if (c == '/' && depth == 0) {
                parts.add(op.substring(from, i));
                from = i + 1;
            }
        }
        parts.add(op.substring(from));
        return parts;
    }

    /**
     * The backward pass: a part made by JAX's {@code transpose(...)} of a linearized function, also
     * under another transform ({@code vmap(transpose(jvp()))}: per-example gradients). The
     * {@code transpose} primitive is a part of its own, with no parenthesis.
     */
    static boolean backward(List<String> parts) {
        for (String p : parts) if (transposed(p)) return true;
        return false;
    }

    /** Whether one part of a path is JAX's {@code transpose(...)} transform, also under another one. */
    static boolean transposed(String part) { return part.startsWith("transpose(") || part.contains("(transpose("); }

    /** Whether one part of a path is JAX's {@code jvp(...)} transform, also under another one. */
    static boolean linearized(String part) { return part.startsWith("jvp(") || part.contains("(jvp("); }

    /** Whether {@code opName} (null: no) is of the backward pass. */
    public static boolean backward(String opName) { return opName != null && backward(split(opName)); }

    /** Whether {@code opName} (null: no) is of the forward pass of a differentiated function. */
    public static boolean forward(String opName) { return opName != null && forward(split(opName)); }

    /** The forward pass of a differentiated function: a {@code jvp(...)} part (also under another transform), none of {@code transpose(...)}. */
    static boolean forward(List<String> parts) {
        if (backward(parts)) return false;
        for (String p : parts) if (linearized(p)) return true;
        return false;
    }

    /**
     * The steps of a path, each with the text that joins it to the one before: {@code jit(step)},
     * {@code /jvp()}, {@code /dot_general} for an op_name with {@code /}; {@code opt_state}, {@code [0]},
     * {@code .mu}, {@code [3]}, {@code ['w1']} for a pytree path. Concatenated they are the path.
     */
    static List<String> steps(String path) {
        List<String> parts = split(path);
        List<String> out = new ArrayList<>();
        if (parts.size() > 1) {
            for (int i = 0; i < parts.size(); i++) out.add(i == 0 ? parts.get(0) : "/" + parts.get(i));
            return out;
        }
        int from = 0, depth = 0;
        char quote = 0;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (quote != 0) {
                if (c == '\\') i++;
                else if (c == quote) quote = 0;
                continue;
            }
            if (c == '\'' || c == '"') quote = c;
            else if (c == '(') depth++;
            else if (c == ')' && depth > 0) depth--;
            else if ((c == '[' || c == '.') && depth == 0 && i > from) {
                out.add(path.substring(from, i));
                from = i;
            }
        }
        out.add(path.substring(from));
        return out;
    }

    private static final Pattern INDEX = Pattern.compile("\\[\\d+]");
    private static final Pattern SUFFIX = Pattern.compile("_\\d+(?=(['\"]])?$)");

    /**
     * A step with its index made a wildcard: {@code [3]} is {@code [*]}, {@code layers_3} and
     * {@code ['layers_3']} are {@code layers_*}; a step without an index is itself.
     */
    static String pattern(String step) {
        String s = INDEX.matcher(step).replaceAll("[*]");
        Matcher m = SUFFIX.matcher(s);
        return m.find() ? s.substring(0, m.start()) + "_*" + s.substring(m.end()) : s;
    }

    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Set<String> WEIGHT_WORDS = Set.of("params", "param", "parameters", "weights", "weight", "model",
            "variables", "model_params");
    private static final Set<String> OPTIMIZER_WORDS = Set.of("opt_state", "opt_states", "optimizer", "optimizer_state", "opt", "optim");

    /**
     * What the names of a parameter's pytree path say it is, the first that says anything:
     * {@link Builtin#WEIGHTS} for {@code params}, {@code model}, {@code weights}, {@code variables} or a
     * name ending in {@code _params}; {@link Builtin#OPTIMIZER} for {@code opt_state}, {@code optimizer},
     * {@code opt}, {@code optim} or one ending in {@code _opt_state}; null for neither
     * ({@code batch}, {@code rng}, {@code state.step}).
     */
    static String root(String path) {
        Matcher m = WORD.matcher(path);
        while (m.find()) {
            String w = m.group().toLowerCase(Locale.ROOT);
            if (OPTIMIZER_WORDS.contains(w) || w.endsWith("_opt_state")) return Builtin.OPTIMIZER;
            if (WEIGHT_WORDS.contains(w) || w.endsWith("_params")) return Builtin.WEIGHTS;
        }
        return null;
    }
}
