package bufq.shell.session;

/**
 * The interactive loop used when stdin is a terminal and no {@code -c}/{@code -f} was given. It
 * reads lines, hands each complete statement to {@link Shell#execute}, and returns the exit code.
 * {@link PlainRepl} is the dependency-free version; the JLine one lives in {@code bufq.shell.repl}.
 */
public interface Repl {
    int run(Shell shell);
}
