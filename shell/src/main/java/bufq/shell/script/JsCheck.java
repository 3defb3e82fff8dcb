package bufq.shell.script;

import bufq.api.Extensions;
import bufq.model.HloModule;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;

import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/** A check written in JavaScript: {@code fn(module, report)}. */
final class JsCheck {
    private final String name;
    private final Value fn;
    private final JsHost host;
    /** The {@code bufq.module} object for a module, as the script's own {@code bufq} makes it. */
    private final Function<HloModule, Rows.ModuleView> views;

    JsCheck(String name, Value fn, JsHost host, Function<HloModule, Rows.ModuleView> views) {
        this.name = name;
        this.fn = fn;
        this.host = host;
        this.views = views;
    }

    /** The check as the engine runs it. */
    Extensions.Check check() { return new Extensions.Check(name, this::run); }

    private void run(HloModule m, Extensions.Report r) {
        Rows.ModuleView view = views.apply(m);
        Convert.ReadOnlyMap report = new Convert.ReadOnlyMap(Map.of(
                "error", (ProxyExecutable) a -> report("error", r::error, a),
                "warn", (ProxyExecutable) a -> report("warn", r::warn, a),
                "info", (ProxyExecutable) a -> report("info", r::info, a)));
        host.callback(this, "check '" + name + "'", () -> fn.execute(view, report));
    }

    private Object report(String severity, BiConsumer<String, String> r, Value[] a) {
        if (a.length < 2) throw new IllegalArgumentException("report." + severity + "(row, message) needs two arguments");
        r.accept(subject(a[0]), Convert.display(a[1]));
        return host.undefined();
    }

    private static String subject(Value v) {
        if (v.isProxyObject() && v.asProxyObject() instanceof Rows.Subject s) return s.subject();
        return Convert.display(v);
    }
}
