package bufq.eval;

/**
 * A running query saw its thread interrupted (the shell's Ctrl-C) and stopped; thrown by the
 * executor's loops and by the condition code that runs inside them.
 */
final class QueryCancelled extends RuntimeException {
    QueryCancelled() { super("query cancelled", null, false, false); }
}
