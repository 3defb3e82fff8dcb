package bufq.shell.run;

/**
 * The interactive loop used when stdin is a terminal and no {@code -c}/{@code -f} was given. It
 * reads lines, hands each complete statement to {@link Shell#execute}, and returns the exit code.
 * Both implementations live in {@code bufq.shell.repl}, which this package does not depend on:
 * {@code PlainRepl}, the dependency-free one, and {@code JLineRepl}.
 */
public interface Repl {
    int run(Shell shell);
}
