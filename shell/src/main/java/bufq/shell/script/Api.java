package bufq.shell.script;

import bufq.api.Extensions;
import bufq.units.Units;
import bufq.api.Holders;
import bufq.api.Advise;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.FieldInfo;
import bufq.lang.Lexer;
import bufq.lang.QueryException;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.Shape;
import bufq.model.TilingModel;
import bufq.api.CapacitySaid;
import bufq.api.Categorize;
import bufq.api.ForecastRequest;
import bufq.api.Forecasts;
import bufq.api.OomLog;
import bufq.api.Whatif;
import bufq.shell.api.ForecastArgs;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.api.ScriptContext;
import bufq.shell.session.Version;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;
import org.graalvm.polyglot.proxy.ProxyExecutable;

import java.util.LinkedHashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The {@code bufq} global: {@code module}, {@code query(text)}, {@code field(entity, name, fn[, options])},
 * {@code tiling(name, fn)} and {@code check(name, fn)}. Bad arguments fail with a message that says
 * what was expected; the script sees them as errors at the calling line.
 */
final class Api extends Convert.ReadOnly {
    private static final List<String> KEYS = ApiKeys.BUFQ;
    private static final List<String> BUILTIN_TILINGS = List.of("tpu", "none");

    private final ScriptContext session;
    private final Consumer<Extensions.AdviseRule> rules;
    private final Supplier<List<Extensions.AdviseRule>> registered;
    private final Consumer<Extensions.Check> checks;
    private final JsHost host;

    /**
     * {@code rules} and {@code checks} take what scripts register with {@code bufq.rule} and {@code
     * bufq.check}; {@code registered} gives the rules registered so far, which {@code bufq.advise()} runs.
     */
    Api(ScriptContext session, Consumer<Extensions.AdviseRule> rules, Supplier<List<Extensions.AdviseRule>> registered, Consumer<Extensions.Check> checks, JsHost host) {
        this.session = session;
        this.rules = rules;
        this.registered = registered;
        this.checks = checks;
        this.host = host;
    }

    @Override public Object getMember(String key) {
        return switch (key) {
            case "module" -> {
                HloModule m = session.modules().current();
                yield m == null ? null : new Rows.ModuleView(session.engine().catalog(), host.evalContext(), this::queryOn);
            }
            case "query" -> (ProxyExecutable) this::query;
            case "why" -> (ProxyExecutable) this::why;
            case "field" -> (ProxyExecutable) this::field;
            case "tiling" -> (ProxyExecutable) this::tiling;
            case "check" -> (ProxyExecutable) this::check;
            case "rule" -> (ProxyExecutable) this::rule;
            case "category" -> (ProxyExecutable) this::category;
            case "whatif" -> (ProxyExecutable) this::whatif;
            case "oom" -> (ProxyExecutable) this::oom;
            case "advise" -> (ProxyExecutable) this::advise;
            case "forecast" -> (ProxyExecutable) this::forecast;
            case "format" -> new Convert.ReadOnlyMap(Map.of("bytes", (ProxyExecutable) this::bytes));
            case "version" -> Version.NUMBER;
            default -> null;
        };
    }

    @Override public Object getMemberKeys() { return ProxyArray.fromArray(KEYS.toArray()); }
    @Override public boolean hasMember(String key) { return KEYS.contains(key); }

    /** {@code bufq.query = f}, {@code delete bufq.query}, {@code bufq.mine = 1}: the API is the same for every script. */
    @Override String readOnly(String verb, String key) {
        if (!KEYS.contains(key)) return "bufq is read-only: cannot " + (verb.equals("set") ? "add" : "delete") + " '" + key + "'";
        return "bufq." + key + " is read-only" + (verb.equals("delete") ? " and cannot be deleted" : "");
    }

    @Override public String toString() {
        return "{module, query(text), why(id or name), field(entity, name, fn[, {type, doc}]), tiling(name, fn), check(name, fn), rule(name, fn), category(fn), whatif(edits), oom(text), forecast(text), advise(), format.bytes(n), version: "
                + Convert.show(Version.NUMBER) + "}";
    }

    // bufq.why(id or name) -> the why command's parts under their json keys (what_it_is, born, ...), rows each
    private Object why(Value... a) {
        HloModule m = session.modules().current();
        if (m == null) throw new IllegalArgumentException("bufq.why: no module loaded");
        HloValue v;
        if (a.length > 0 && a[0].isString()) {
            String name = a[0].asString();
            List<HloValue> named = name.endsWith("}") ? (m.valueByKey(name) == null ? List.of() : List.of(m.valueByKey(name)))
                    : m.valuesNamed(name);
            if (named.isEmpty()) throw new IllegalArgumentException("bufq.why(name): no value named " + name + " in " + m.handle());
            if (named.size() > 1) {
                throw new IllegalArgumentException("bufq.why(name): " + name + " names " + named.size() + " values ("
                        + named.stream().map(HloValue::label).limit(4).collect(Collectors.joining(", "))
                        + (named.size() > 4 ? ", ..." : "") + "); name one element, e.g. " + named.get(named.size() - 1).label());
            }
            v = named.get(0);
        } else {
            long id = JsArgs.whole(a, 0, "bufq.why(id or name)");
            v = m.value(id);
            if (v == null) throw new IllegalArgumentException("bufq.why(id): no value with id " + id + " in " + m.handle());
        }
        Map<String, Object> parts = new LinkedHashMap<>();
        for (Map.Entry<String, Table> e : Holders.whyParts(m, v).entrySet()) {
            Table t = e.getValue();
            parts.put(e.getKey(), new Convert.ReadOnlyArray(t.size(), r -> new Rows.ResultRow(t, r)));
        }
        return new Convert.ReadOnlyMap(parts);
    }

    // bufq.oom(text) -> {out_of_memory_messages, which_module_and_allocation, listed_buffers,
    // figures_re_derived_from_the_dump}: the oom command's tables, as arrays of rows, joined to every loaded module
    private Object oom(Value... a) {
        OomLog log = OomLog.read(JsArgs.string(a, 0, "bufq.oom(text)"), "the text");
        List<HloModule> modules = new ArrayList<>();
        try {
            session.modules().forEachModule(modules::add);
        } catch (Engine.Failure | CommandException e) {
            throw new IllegalArgumentException("bufq.oom: " + e.getMessage());
        }
        return new Convert.ReadOnlyMap(byKey(log.report(modules)));
    }

    // bufq.forecast(text) -> the forecast command's tables under their json keys, rows each; every value's law
    // under laws. text as the command takes it: "at 64", "x[0] at 64"
    private Object forecast(Value... a) {
        String usage = "bufq.forecast(text)";
        ForecastRequest r;
        try {
            r = ForecastArgs.request(JsArgs.string(a, 0, usage));
        } catch (IllegalArgumentException | CommandException e) {
            throw new IllegalArgumentException(usage + ": " + e.getMessage());
        }
        if (r.chips()) throw new IllegalArgumentException(usage + ": 'chips' forecasts the current module alone: run the forecast chips command");
        CapacitySaid capacity = session.settings().capacitySaid();
        if (r.fit() && !capacity.given())
            throw new IllegalArgumentException(usage + ": 'fit' needs a capacity: set capacity SIZE or set device NAME");
        List<HloModule> loaded = new ArrayList<>();
        try {
            session.modules().forEachModule(loaded::add);
            Forecasts.Series series = Forecasts.series(loaded, session.modules().current());
            for (HloModule m : series.modules()) session.modules().readUsedValues(m);
            return new Convert.ReadOnlyMap(byKey(series.tables(r, capacity)));
        } catch (Forecasts.Refusal e) {
            throw new IllegalArgumentException(usage + ": " + e.getMessage());
        } catch (Engine.Failure | CommandException e) {
            throw new IllegalArgumentException(usage + ": " + e.getMessage());
        }
    }

    // bufq.advise() -> {advice, evidence, title, notes}: the advise command's one ranked list for the current
    // module (for the allocation a loaded message failed on, else the peak), rows each; null without live ranges
    private Object advise(Value... a) {
        String usage = "bufq.advise()";
        HloModule m = session.modules().current();
        if (m == null) throw new IllegalArgumentException(usage + ": no module loaded");
        try {
            session.modules().readUsedValues(m);
            OomLog oom = session.modules().oom();
            Advise.Answer list = Advise.answer(m, new Advise.Request(registered.get(), oom, session.modules().joinedToOom(), session.settings().capacitySaid(),
                    session.engine().catalog(), session.settings().tiling(), session.settings()::tilingNamed));
            if (list == null) return null;
            Map<String, Object> parts = byKey(list.report());
            parts.put("title", list.title());
            parts.put("notes", new Convert.ReadOnlyArray(list.notes().size(), i -> list.notes().get(i)));
            return new Convert.ReadOnlyMap(parts);
        } catch (QueryException | Engine.Failure | CommandException | Extensions.Failure e) {
            throw new IllegalArgumentException(usage + ": " + e.getMessage());
        }
    }

    /** A command's tables under their keys, each an array of read-only rows, in the command's order. */
    private static Map<String, Object> byKey(List<? extends Output> outputs) {
        Map<String, Object> parts = new LinkedHashMap<>();
        for (Output o : outputs)
            if (o instanceof Table t) parts.put(t.key(), new Convert.ReadOnlyArray(t.size(), i -> new Rows.ResultRow(t, i)));
        return parts;
    }

    // bufq.format.bytes(n) -> "512B", "16.0MiB": sizes as bufq's own tables print them
    private Object bytes(Value... a) {
        return Units.human(JsArgs.whole(a, 0, "bufq.format.bytes(n)"));
    }

    /** The read-only view scripts get of {@code m} (a rule's or check's module), under the current tiling. */
    Rows.ModuleView viewOf(HloModule m) {
        return new Rows.ModuleView(session.engine().catalog(), new EvalContext(m, session.settings().tiling()), this::queryOn);
    }

    // bufq.query(text) -> array of row objects with the result's columns
    private Object query(Value... a) {
        String text = JsArgs.string(a, 0, "bufq.query(text)");
        HloModule m = session.modules().current();
        if (m == null) throw new IllegalArgumentException("bufq.query: no module loaded");
        return queryOn(text, m);
    }

    /** Runs {@code text} on {@code m} with the current tiling model; rows as objects keyed by column. */
    Object queryOn(String text, HloModule m) {
        List<Output> out;
        try {
            out = session.engine().query(text, m, session.settings().tiling());
        } catch (Engine.Failure f) {
            // The diagnostic's last line is its message; the query and caret above it would be
            // repeated in every enclosing error.
            String d = f.getMessage().strip();
            String last = d.substring(d.lastIndexOf('\n') + 1);
            // Too deep a nesting: the innermost refusal alone, not wrapped again at each of 16 levels (1.5 KB).
            int deep = last.lastIndexOf(JsHost.TOO_DEEP);
            if (deep >= 0) throw new IllegalArgumentException(last.substring(deep));
            throw new IllegalArgumentException("query '" + text + "': " + last);
        }
        for (Output o : out) {
            if (o instanceof Table t) return new Convert.ReadOnlyArray(t.size(), r -> new Rows.ResultRow(t, r));
        }
        return new Convert.ReadOnlyArray(0, r -> null);
    }

    // bufq.whatif(edits) -> the edited copy of the current module, as bufq.module shows a module
    private Object whatif(Value... a) {
        String usage = "bufq.whatif(edits)";
        String text = JsArgs.string(a, 0, usage);
        HloModule m = session.modules().current();
        if (m == null) throw new IllegalArgumentException(usage + ": no module loaded");
        Catalog catalog = session.engine().catalog();
        try {
            Whatif.Edits p = Whatif.Edits.parse(text, Set.copyOf(catalog.entities()));
            if (p.query() != null)
                throw new IllegalArgumentException(usage + ": edits only; query the module it returns (.query(text))");
            Whatif.Result o = Whatif.run(m, p, catalog, session.settings().tiling(), session.settings()::tilingNamed);
            return new Rows.ModuleView(catalog, new EvalContext(o.editedModule(), session.settings().tiling()), this::queryOn, Whatif.BOUND);
        } catch (QueryException e) {
            throw new IllegalArgumentException(usage + ": " + e.getMessage() + " in '" + text + "'");
        }
    }

    // bufq.field(entity, name, fn[, {type, doc}])
    private Object field(Value... a) {
        String usage = "bufq.field(entity, name, fn[, {type, doc}])";
        String entity = JsArgs.string(a, 0, usage);
        String name = JsArgs.string(a, 1, usage);
        Value fn = JsArgs.function(a, 2, usage);
        Value opts = a.length > 3 && !a[3].isNull() ? a[3] : null;
        String doc = opts != null && opts.hasMember("doc") && opts.getMember("doc").isString()
                ? opts.getMember("doc").asString() : "defined by a script";
        Engine engine = session.engine();
        if (!engine.entities().contains(entity))
            throw new IllegalArgumentException(usage + ": unknown entity '" + entity + "'; expected one of "
                    + String.join(", ", engine.entities()));
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*") || Lexer.KEYWORDS.contains(name.toLowerCase(Locale.ROOT)))
            throw new IllegalArgumentException(usage + ": field name '" + name + "' must be an identifier and not a keyword");
        if (Catalog.standard().field(entity, name) != null)
            throw new IllegalArgumentException(usage + ": '" + name + "' is a built-in field of " + entity + "; choose another name");
        ColumnType type;
        if (opts != null && opts.hasMember("type") && !opts.getMember("type").isNull()) {
            type = type(Convert.display(opts.getMember("type")));
        } else {
            type = infer(entity, fn);
        }
        Object key = new Object(); // this registration, for JsHost.callback
        String what = "field '" + name + "' of " + entity;
        FieldWatch watch = new FieldWatch(what, engine.catalog().fields(entity).stream().map(FieldInfo::name).toList());
        try {
            engine.addField(entity, name, type, doc, row -> callField(key, watch, what, fn, entity, row));
        } catch (Engine.Failure | IllegalArgumentException e) {
            throw new IllegalArgumentException(usage + ": " + e.getMessage());
        }
        return host.undefined();
    }

    private Object callField(Object key, FieldWatch watch, String what, Value fn, String entity, Object row) {
        EvalContext ctx = host.evalContext();
        Catalog catalog = session.engine().catalog();
        return host.callback(key, what, () -> {
            Rows.Row r = new Rows.Row(entity, row, catalog, ctx);
            Value v = fn.execute(r);
            Object cell;
            try {
                cell = Convert.fromJs(v);
            } catch (IllegalArgumentException e) {
                throw new ScriptFailure(ScriptFailure.definedAt(fn) + what + " " + e.getMessage());
            }
            return watch.check(r, v, cell, message -> session.printer().info("warning: " + ScriptFailure.definedAt(fn) + message));
        });
    }

    /** The types scripts/README.md lists; {@code note} (a row's remark, not data) and other names are refused. */
    private static final List<String> FIELD_TYPES = List.of("int", "bytes", "float", "percent", "string", "bool", "list");

    private static ColumnType type(String t) {
        if (!FIELD_TYPES.contains(t.toLowerCase(Locale.ROOT)))
            throw new IllegalArgumentException("unknown field type '" + t + "'; expected int, bytes, float, percent, string, bool or list");
        return ColumnType.valueOf(t.toUpperCase(Locale.ROOT));
    }

    /** The type of the first non-null result on the current module's first rows; float without any. */
    private ColumnType infer(String entity, Value fn) {
        HloModule m = session.modules().current();
        if (m == null) return ColumnType.FLOAT;
        EvalContext ctx = host.evalContext();
        Catalog catalog = session.engine().catalog();
        List<?> rows = catalog.rows(entity, ctx);
        for (int i = 0; i < Math.min(rows.size(), 50); i++) {
            Object row = rows.get(i);
            Object v;
            try {
                v = Convert.fromJs(fn.execute(new Rows.Row(entity, row, catalog, ctx)));
            } catch (PolyglotException e) {
                if (e.isInterrupted() || e.isCancelled() || e.isResourceExhausted()) throw e;
                continue; // the query will report it with the row's context
            } catch (RuntimeException e) {
                continue;
            }
            if (v instanceof Long) return ColumnType.INT;
            if (v instanceof Double) return ColumnType.FLOAT;
            if (v instanceof String) return ColumnType.STRING;
            if (v instanceof Boolean) return ColumnType.BOOL;
            if (v instanceof List) return ColumnType.LIST;
        }
        return ColumnType.FLOAT;
    }

    // bufq.tiling(name, fn): fn(shape) -> bytes
    private Object tiling(Value... a) {
        String usage = "bufq.tiling(name, fn)";
        String name = JsArgs.string(a, 0, usage);
        Value fn = JsArgs.function(a, 1, usage);
        if (!name.matches("[a-z][a-z0-9_-]*"))
            throw new IllegalArgumentException(usage + ": name '" + name + "' must be lowercase letters, digits, '-' or '_'");
        if (BUILTIN_TILINGS.contains(name))
            throw new IllegalArgumentException(usage + ": '" + name + "' is built in; choose another name");
        session.settings().registerTiling(new JsTiling(name, fn, host));
        return host.undefined();
    }

    /** The name a check or an advise rule is registered under (argument 0): lowercase words joined by '-'. */
    private static String registeredName(Value[] a, String usage) {
        String name = JsArgs.string(a, 0, usage);
        if (!name.matches("[a-z][a-z0-9-]*"))
            throw new IllegalArgumentException(usage + ": name '" + name + "' must be lowercase letters, digits and '-'");
        return name;
    }

    // bufq.category(fn): fn(value) -> a category name, or null for the rules after it
    private Object category(Value... a) {
        Value fn = JsArgs.function(a, 0, "bufq.category(fn)");
        try {
            session.engine().setCategories(Categorize.addRule(new JsCategory(fn, host, session).rule()));
        } catch (Engine.Failure e) {
            throw new IllegalArgumentException("bufq.category(fn): " + e.getMessage());
        }
        return host.undefined();
    }

    // bufq.check(name, fn): fn(module, report)
    private Object check(Value... a) {
        String usage = "bufq.check(name, fn)";
        String name = registeredName(a, usage);
        Value fn = JsArgs.function(a, 1, usage);
        checks.accept(new JsCheck(name, fn, host, this::viewOf).check());
        return host.undefined();
    }

    /**
     * A tiling model written in JavaScript. Array shapes go to the script with where the value is
     * held ({@link Rows#place}), results cached per shape and place: a model must be a function of
     * the two alone. Tuples, tokens and opaque shapes keep their logical size.
     */
    static final class JsTiling implements TilingModel {
        private final String name;
        private final Value fn;
        private final JsHost host;
        private final Map<Key, Long> cache = new ConcurrentHashMap<>();

        /** What a result depends on: the shape, and the place facts {@link Rows#place} gives. */
        private record Key(Shape shape, String backend, boolean threadLocal) {}

        JsTiling(String name, Value fn, JsHost host) {
            this.name = name;
            this.fn = fn;
            this.host = host;
        }

        @Override public String name() { return name; }

        /** A shape held nowhere in particular: the place is unknown (no backend, not thread-local). */
        @Override public long paddedBytes(Shape shape) {
            return paddedBytes(new Key(shape, null, false));
        }

        @Override public long paddedBytes(HloValue v, HloModule m) {
            BufferAllocation a = m.allocation(v.allocation());
            return paddedBytes(new Key(v.shape(), m.info().backend(), a != null && a.threadLocal()));
        }

        private long paddedBytes(Key key) {
            Shape shape = key.shape();
            if (!shape.isArray()) return shape.logicalBytes();
            Long hit = cache.get(key);
            if (hit != null) return hit;
            String what = "tiling model '" + name + "'";
            long bytes;
            try {
                bytes = host.callback(this, what, () -> {
                    Value r = fn.execute(Rows.shape(shape), Rows.place(key.backend(), key.threadLocal()));
                    if (!r.isNumber() || !r.fitsInLong() || r.asLong() < 0)
                        throw new TilingModel.TilingFailure(ScriptFailure.definedAt(fn) + what + " returned "
                                + (r.isString() ? Convert.show(r.asString()) : Convert.display(r)) + " for " + shape.text()
                                + "; expected a whole number of bytes >= 0");
                    return r.asLong();
                });
            } catch (ScriptFailure f) {
                throw new TilingModel.TilingFailure(what + " failed for " + shape.text() + ": " + f.getMessage());
            }
            cache.put(key, bytes);
            return bytes;
        }
    }

    // bufq.rule(name, fn): fn(module) -> [{finding, whatif[, values]}], each measured by advise
    private Object rule(Value... a) {
        String usage = "bufq.rule(name, fn)";
        String name = registeredName(a, usage);
        Value fn = JsArgs.function(a, 1, usage);
        rules.accept(new JsRule(name, fn, host, this::viewOf).rule());
        return host.undefined();
    }
}
