package bufq.shell.statement;

/**
 * Code read a piece at a time (a script's {@code js} statement, line by line), asked after each
 * piece whether all of it so far is unfinished, as the script engine's {@code incomplete} would say
 * of the whole. The statement reader asks it; the script engine makes it.
 */
public interface UnfinishedCode {
    void add(CharSequence code);

    boolean incomplete();
}
