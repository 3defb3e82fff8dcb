package bufq.shell.script;

import bufq.api.Extensions;
import bufq.eval.EvalContext;
import bufq.shell.api.ScriptContext;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.graalvm.polyglot.proxy.ProxyExecutable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One sandboxed GraalVM JavaScript context for a shell session. The context may reach only what
 * bufq hands it (the {@code bufq} global and {@code print}): no host classes, files, network,
 * processes, threads, native code, environment or other languages. Every call from Java into the
 * script runs under the {@link Watchdog}. Not thread-safe: the shell's thread uses it.
 */
final class JsContext implements JsHost, AutoCloseable {
    private final ScriptContext session;
    private final Engine engine;
    private final Context context;
    private final Watchdog watchdog;
    private final Value undefined;
    private String running; // name of the outermost source being evaluated, for errors without a location
    /** Fields, tiling models and checks whose function is running now (see {@link #callback}). */
    private final Set<Object> computing = Collections.newSetFromMap(new IdentityHashMap<>());

    /** How many script functions bufq may be inside at once (a field whose query reads a field whose query ...). */
    static final int MAX_NESTING = 16;

    JsContext(ScriptContext session, Consumer<Extensions.AdviseRule> rules, Supplier<List<Extensions.AdviseRule>> registered, Consumer<Extensions.Check> checks, long heapCap) {
        this.session = session;
        if (System.getProperty("polyglotimpl.AttachLibraryFailureAction") == null)
            System.setProperty("polyglotimpl.AttachLibraryFailureAction", "ignore");
        PrintStream quietErr = new PrintStream(OutputStream.nullOutputStream());
        this.engine = Engine.newBuilder("js")
                .option("engine.WarnInterpreterOnly", "false")
                .out(session.printer().out()).err(quietErr).build();
        this.context = Context.newBuilder("js")
                .engine(engine)
                .allowHostAccess(HostAccess.newBuilder(HostAccess.EXPLICIT).allowArrayAccess(true).allowListAccess(true).build())
                .allowHostClassLookup(name -> false)
                .allowHostClassLoading(false)
                .allowIO(IOAccess.NONE)
                .allowCreateProcess(false)
                .allowCreateThread(false)
                .allowNativeAccess(false)
                .allowEnvironmentAccess(EnvironmentAccess.NONE)
                .allowPolyglotAccess(PolyglotAccess.NONE)
                .allowExperimentalOptions(false)
                .option("js.strict", "true") // writing to a read-only row must fail, not pass silently
                .out(new SinkStream(session, false)).err(new SinkStream(session, true))
                .build();
        this.watchdog = new Watchdog(context, heapCap);
        this.undefined = context.eval("js", "undefined");
        // Globals no script can replace, shadow or delete (a script from a bug report must not be
        // able to turn the checks of the scripts after it into no-ops): non-writable and
        // non-configurable, so assigning or deleting throws and a top-level let/const of the same
        // name is a SyntaxError. The API object itself refuses writes.
        Value define = context.eval("js", "(function (name, value) { Object.defineProperty(globalThis, name,"
                + " {value: value, writable: false, enumerable: true, configurable: false}); })");
        define.execute("bufq", new Api(session, rules, registered, checks, this));
        define.execute("print", (ProxyExecutable) args -> {
            write(session, false, join(args));
            return undefined;
        });
        define.execute("printErr", (ProxyExecutable) args -> {
            write(session, true, join(args));
            return undefined;
        });
        // console.* would write to the context's streams directly; send them where print goes.
        // bufq's own code, so without the user's time limit: a first eval loads many classes.
        call(Duration.ZERO, () -> context.eval("js", "console.log = console.info = console.debug = print;"
                + " console.warn = console.error = printErr;"));
        // The classes that carry a host error into a script initialise here, on a shallow stack: a
        // StackOverflowError while a class initialises would leave it unusable for the whole JVM.
        call(Duration.ZERO, () -> context.eval("js", "try { bufq.query(); } catch (e) { String(e.message); }"));
        call(Duration.ZERO, () -> { Hardening.lockdown(context); return null; });
    }

    private static String join(Value[] args) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < args.length; i++) {
            if (i > 0) b.append(' ');
            b.append(Convert.display(args[i]));
        }
        return b.toString();
    }

    private static void write(ScriptContext session, boolean err, String line) {
        if (err) {
            session.printer().err().println(session.printer().forScreen(line, true));
            return;
        }
        try {
            session.printer().printLine(line);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write output: " + e.getMessage(), e);
        }
    }

    /**
     * Runs inline code; returns its completion value as {@code render} writes it ({@link
     * Convert#display}, or {@link Convert#json} in json), or null when it is undefined (in every
     * format: {@code js print(x)} prints its lines and nothing more).
     */
    String evalInline(String code, String name, Function<Value, String> render) {
        running = name;
        return call(() -> {
            Value v = context.eval(Source.newBuilder("js", code, name).cached(false).buildLiteral());
            return v.isNull() && "undefined".equals(v.toString()) ? null : render.apply(v);
        });
    }

    /**
     * Runs a script file's text under its name (the name errors show), as an ECMAScript module: its
     * top-level declarations ({@code var}, {@code let}, {@code const}, functions, classes) are its
     * own, so no file's {@code const out} clashes with a name an earlier script declared or locked,
     * and none of its names leaks into the next file. What a file leaves for the scripts after it, it
     * puts on {@code globalThis}, or registers with {@code bufq}. init.js, the user's own, runs in
     * the session's scope instead ({@code sessionScope}), as {@code js} lines do: what it declares,
     * they see.
     */
    void evalFile(String text, String name, boolean sessionScope) {
        running = name;
        Source.Builder b = Source.newBuilder("js", text, name).cached(false);
        if (!sessionScope) b.mimeType(MODULE);
        call(() -> context.eval(b.buildLiteral()));
    }

    private static final String MODULE = "application/javascript+module";

    /**
     * Runs {@code body} (which enters the script) under the time, memory and Ctrl-C limits. What the
     * script throws comes back as a {@link ScriptFailure} with its location.
     */
    <T> T call(Supplier<T> body) {
        return call(session.settings().timeout(), body);
    }

    private <T> T call(Duration timeout, Supplier<T> body) {
        if (watchdog.killed()) throw new ScriptFailure("the JavaScript engine was stopped; run the script again");
        watchdog.enter(timeout);
        try {
            return body.get();
        } catch (PolyglotException e) {
            // Once the watchdog stopped this run, whatever comes out (an interrupt, or a host error
            // wrapping one) is the stop's doing.
            String reason = watchdog.reason();
            // The engine consumes the Ctrl-C interrupt while stopping the script; set it again so
            // what called the script (a check, a query's field) ends as cancelled, not as failed.
            if ("cancelled".equals(reason) || reason == null && (e.isInterrupted() || e.isCancelled()))
                Thread.currentThread().interrupt();
            throw new ScriptFailure(ScriptErrors.describe(e, reason, session.settings().timeoutText(), watchdog.heapAllowance(), running));
        } catch (StackOverflowError e) {
            // Host code between two script frames ran out of stack; only this run ends.
            throw new ScriptFailure((running == null ? "" : running + ": ")
                    + "the script ran out of stack (does it call itself without end?)");
        } catch (IllegalStateException e) {
            if (watchdog.killed()) throw new ScriptFailure(ScriptErrors.stopMessage(watchdog.reason(),
                    session.settings().timeoutText(), watchdog.heapAllowance()) + "; the JavaScript engine was reset");
            throw e;
        } finally {
            watchdog.exit();
        }
    }

    /**
     * Runs a field's, tiling model's, check's or rule's function for bufq, under {@link #call}. A function
     * that needs its own result while computing it (a field that prints or queries its own row, a
     * tiling model whose query needs padded sizes) would recurse until the stack runs out: it is
     * refused, as is nesting deeper than {@link #MAX_NESTING}. The script sees the refusal as an
     * error at its calling line.
     *
     * @param key  identifies the function (the same object on every call)
     * @param what how messages name it, e.g. {@code field 'p' of values}
     */
    @Override public <T> T callback(Object key, String what, Supplier<T> body) {
        if (computing.contains(key))
            throw new ScriptFailure(what + " is needed while it is being computed: its function reads it again"
                    + " (through a row, print or a query), which would never end");
        if (computing.size() >= MAX_NESTING)
            throw new ScriptFailure(TOO_DEEP + what + " would nest scripts calling bufq calling scripts more than "
                    + MAX_NESTING + " deep");
        computing.add(key);
        try {
            return call(body);
        } finally {
            computing.remove(key);
        }
    }

    @Override public Value undefined() { return undefined; }

    /** The context had to be closed to stop a script; a new host must be made. */
    boolean dead() { return watchdog.killed(); }

    /** Stops the running script (Ctrl-C). */
    void cancel() { watchdog.stop("cancelled"); }

    /** Closes the context at once, as the watchdog does when a script ignores an interrupt. */
    void kill() { watchdog.kill(); }

    @Override public EvalContext evalContext() { return new EvalContext(session.modules().current(), session.settings().tiling()); }

    @Override public void close() {
        watchdog.close();
        try {
            context.close(true);
            engine.close(true);
        } catch (RuntimeException ignored) {
            // closing twice after a forced stop
        }
    }

    /** The context's own stdout/stderr, routed to the shell's output and error streams. */
    private static final class SinkStream extends OutputStream {
        private final ScriptContext session;
        private final boolean err;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

        SinkStream(ScriptContext session, boolean err) {
            this.session = session;
            this.err = err;
        }

        @Override public void write(int b) {
            if (b == '\n') flush();
            else buf.write(b);
        }

        @Override public void flush() {
            if (buf.size() == 0) return;
            JsContext.write(session, err, buf.toString(StandardCharsets.UTF_8));
            buf.reset();
        }
    }
}
