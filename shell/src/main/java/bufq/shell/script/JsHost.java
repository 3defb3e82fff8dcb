package bufq.shell.script;

import bufq.eval.EvalContext;
import org.graalvm.polyglot.Value;

import java.util.function.Supplier;

/**
 * What the objects scripts see need from the context that runs them ({@link JsContext}): to call
 * back into a script function under its limits, JavaScript's undefined, and what queries see now.
 * The {@code bufq} object, its rules, checks and tiling models hold this, not the context.
 */
interface JsHost {
    /** Starts the refusal of too deep a nesting: each enclosing query passes it on alone, not inside its own words. */
    String TOO_DEEP = "too deep: ";

    /**
     * Runs a field's, tiling model's, check's or rule's function for bufq under the session's limits,
     * refusing one that needs its own result while computing it or nests too deep (a
     * {@link ScriptFailure} starting with {@link #TOO_DEEP}).
     *
     * @param key  identifies the function (the same object on every call)
     * @param what how messages name it, e.g. {@code field 'p' of values}
     */
    <T> T callback(Object key, String what, Supplier<T> body);

    /** JavaScript's undefined, what API functions without a result return. */
    Value undefined();

    /** What queries and field functions see now: the current module and tiling model. */
    EvalContext evalContext();
}
