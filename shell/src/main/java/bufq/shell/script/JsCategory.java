package bufq.shell.script;

import bufq.api.Categorize;
import bufq.api.Extensions;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.shell.api.ScriptContext;
import org.graalvm.polyglot.Value;

import java.util.List;

/**
 * A category rule written in JavaScript ({@code bufq.category(fn)}): {@code fn(value)} returns the
 * value's category, or null (or undefined) to leave it to the rules after it. The value is a row as
 * queries see it, its {@code category} the built-in one; the function runs once per value and module.
 */
final class JsCategory {
    private final Value fn;
    private final JsHost host;
    private final ScriptContext session;
    private final String text;

    JsCategory(Value fn, JsHost host, ScriptContext session) {
        this.fn = fn;
        this.host = host;
        this.session = session;
        String at = ScriptFailure.definedAt(fn);
        this.text = "bufq.category(fn)" + (at.isEmpty() ? "" : " at " + at.substring(0, at.length() - 2));
    }

    /** The rule as the engine's classification runs it. */
    Extensions.Category rule() { return new Extensions.Category(text, this::classify); }

    private String[] classify(HloModule m) {
        Catalog catalog = Categorize.builtinOnly(session.engine().catalog());
        EvalContext ctx = new EvalContext(m, session.settings().tiling());
        List<HloValue> values = m.values();
        return host.callback(this, "bufq.category's function", () -> {
            String[] out = new String[values.size()];
            for (int i = 0; i < out.length; i++) {
                Value r = fn.execute(new Rows.Row("values", values.get(i), catalog, ctx));
                if (r.isNull()) continue;
                if (!r.isString())
                    throw new ScriptFailure(ScriptFailure.definedAt(fn) + "bufq.category's function returned " + Convert.display(r)
                            + " for " + values.get(i).label() + "; expected a category name or null");
                out[i] = r.asString();
            }
            return out;
        });
    }
}
