package bufq.shell.script;

import bufq.api.Extensions;
import bufq.api.Whatif;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import org.graalvm.polyglot.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * An {@code advise} rule written in JavaScript: {@code fn(module)} returns findings as
 * {@code {finding, whatif}} objects, optionally with {@code values} (ids, for the evidence table) and
 * {@code jax} (the JAX code that makes the change, for the list's jax column);
 * advise measures each {@code whatif} like a built-in rule's.
 */
final class JsRule {
    private final String name;
    private final Value fn;
    private final JsHost host;
    /** The {@code bufq.module} object for a module, as the script's own {@code bufq} makes it. */
    private final Function<HloModule, Rows.ModuleView> views;

    JsRule(String name, Value fn, JsHost host, Function<HloModule, Rows.ModuleView> views) {
        this.name = name;
        this.fn = fn;
        this.host = host;
        this.views = views;
    }

    /** The rule as the engine's advise runs it. */
    Extensions.AdviseRule rule() { return new Extensions.AdviseRule(name, this::find); }

    private List<Extensions.Proposal> find(HloModule m) {
        Rows.ModuleView view = views.apply(m);
        String what = "rule '" + name + "'";
        try {
            return findIn(view, what, m);
        } catch (ScriptFailure f) {
            throw new Extensions.Failure(f.getMessage());
        }
    }

    private List<Extensions.Proposal> findIn(Rows.ModuleView view, String what, HloModule m) {
        return host.callback(this, what, () -> {
            Value r = fn.execute(view);
            if (!r.hasArrayElements())
                throw new ScriptFailure(ScriptFailure.definedAt(fn) + what + " returned " + Convert.display(r)
                        + "; expected an array of {finding, whatif}");
            List<Extensions.Proposal> out = new ArrayList<>();
            for (long i = 0; i < r.getArraySize(); i++) {
                Value e = r.getArrayElement(i);
                if (!e.hasMember("finding") || !e.hasMember("whatif") || !e.getMember("finding").isString()
                        || !e.getMember("whatif").isString())
                    throw new ScriptFailure(ScriptFailure.definedAt(fn) + what + " returned element " + i
                            + " without string 'finding' and 'whatif'");
                String edit = e.getMember("whatif").asString().strip().replaceFirst("^whatif\\s+", "");
                String jax = e.hasMember("jax") && e.getMember("jax").isString() ? e.getMember("jax").asString() : null;
                out.add(new Extensions.Proposal(e.getMember("finding").asString(), edits(edit, i, what), evidence(e, i, what, m), jax));
            }
            return out;
        });
    }

    /** The script's {@code whatif} text as the what-if engine's edits: parsed once, here, where the script wrote it. */
    private Whatif.Edits edits(String text, long i, String what) {
        try {
            return Whatif.Edits.parse(text, Set.of());
        } catch (QueryException x) {
            throw new ScriptFailure(ScriptFailure.definedAt(fn) + what + " returned element " + i + " whose whatif '" + text
                    + "' does not parse: " + x.getMessage());
        }
    }

    /**
     * The finding's optional {@code values}: ids of the values behind it (or rows with an
     * {@code id}), for the evidence table, largest first.
     */
    private List<HloValue> evidence(Value e, long i, String what, HloModule m) {
        if (!e.hasMember("values") || e.getMember("values").isNull()) return List.of();
        Value vs = e.getMember("values");
        if (!vs.hasArrayElements())
            throw new ScriptFailure(ScriptFailure.definedAt(fn) + what + " returned element " + i + " whose 'values' is not an array of ids");
        List<HloValue> out = new ArrayList<>();
        for (long k = 0; k < vs.getArraySize(); k++) {
            Value x = vs.getArrayElement(k);
            Value id = x.hasMember("id") ? x.getMember("id") : x;
            HloValue v = id.isNumber() && id.fitsInLong() ? m.value(id.asLong()) : null;
            if (v == null)
                throw new ScriptFailure(ScriptFailure.definedAt(fn) + what + " returned element " + i + " whose 'values' holds "
                        + Convert.display(x) + ", not the id of a value of " + m.handle());
            out.add(v);
        }
        out.sort((a, b) -> Long.compare(b.size(), a.size()));
        return out;
    }
}
