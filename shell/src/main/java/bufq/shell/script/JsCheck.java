package bufq.shell.script;

import bufq.analysis.check.CheckRule;
import bufq.analysis.check.Reporter;
import bufq.analysis.check.Severity;
import bufq.model.HloModule;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** A check written in JavaScript: {@code fn(module, report)}. */
final class JsCheck implements CheckRule {
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

    @Override public String name() { return name; }

    @Override public void run(HloModule m, Reporter r) {
        Rows.ModuleView view = views.apply(m);
        Convert.ReadOnlyMap report = new Convert.ReadOnlyMap(Map.of(
                "error", (ProxyExecutable) a -> report(r, Severity.ERROR, a),
                "warn", (ProxyExecutable) a -> report(r, Severity.WARN, a),
                "info", (ProxyExecutable) a -> report(r, Severity.INFO, a)));
        host.callback(this, "check '" + name + "'", () -> fn.execute(view, report));
    }

    private Object report(Reporter r, Severity s, Value[] a) {
        if (a.length < 2) throw new IllegalArgumentException("report." + s.name().toLowerCase(Locale.ROOT) + "(row, message) needs two arguments");
        r.report(s, subject(a[0]), Convert.display(a[1]));
        return host.undefined();
    }

    private static String subject(Value v) {
        if (v.isProxyObject() && v.asProxyObject() instanceof Rows.Subject s) return s.subject();
        return Convert.display(v);
    }
}
