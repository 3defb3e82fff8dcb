package bufq.shell.script;

import org.graalvm.polyglot.Value;

/**
 * The checks on what a script passes to a {@code bufq} function: a wrong argument fails with the
 * function's usage and which argument, which the script sees as an error at the calling line.
 */
final class JsArgs {
    private JsArgs() {}

    static String string(Value[] a, int i, String usage) {
        if (a.length <= i || !a[i].isString()) throw new IllegalArgumentException(usage + ": argument " + (i + 1) + " must be a string");
        return a[i].asString();
    }

    static long whole(Value[] a, int i, String usage) {
        if (a.length <= i || !a[i].isNumber() || !a[i].fitsInLong())
            throw new IllegalArgumentException(usage + ": argument " + (i + 1) + " must be a whole number");
        return a[i].asLong();
    }

    static Value function(Value[] a, int i, String usage) {
        if (a.length <= i || !a[i].canExecute()) throw new IllegalArgumentException(usage + ": argument " + (i + 1) + " must be a function");
        return a[i];
    }
}
