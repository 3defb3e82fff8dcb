package bufq.shell;

import java.util.Map;

/**
 * The process surroundings the shell may look at, passed in so tests can pretend.
 *
 * @param vars        environment variables ({@code NO_COLOR}, {@code BUFQ_DEBUG}, ...)
 * @param interactive stdin and stdout are a terminal
 */
public record Env(Map<String, String> vars, boolean interactive) {
    public Env {
        vars = Map.copyOf(vars);
    }

    public static Env system() {
        return new Env(System.getenv(), System.console() != null);
    }

    /** {@code NO_COLOR} set to anything non-empty (https://no-color.org). */
    public boolean noColor() {
        String v = vars.get("NO_COLOR");
        return v != null && !v.isEmpty();
    }

    public boolean debug() {
        String v = vars.get("BUFQ_DEBUG");
        return v != null && !v.isEmpty() && !v.equals("0");
    }
}
