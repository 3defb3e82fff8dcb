package bufq.shell.script;

import bufq.api.Extensions;
import bufq.shell.session.CommandException;
import bufq.shell.session.Env;
import bufq.shell.api.ScriptEngine;
import bufq.shell.api.ScriptContext;
import bufq.shell.session.Status;
import bufq.shell.session.UserPaths;
import bufq.shell.statement.UnfinishedCode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * JavaScript in a shell session: {@code js CODE}, {@code run FILE.js}, {@code -f FILE.js}, init.js,
 * and the checks scripts register. This class never touches GraalVM itself: the engine starts on
 * the first call that runs JavaScript, so sessions that use none never load it.
 *
 * <p>When a runaway script cannot be interrupted, its context is closed; the next JavaScript use
 * starts a fresh one. Fields, tilings, checks and rules from the closed context then fail (checks
 * and rules stay registered, so {@code check} reports them as errors) with a message asking to run
 * their script again.
 */
public final class Scripts implements ScriptEngine {
    /** Heap a script may hold beyond what was in use when it started: {@code -Dbufq.js.maxheap=BYTES}, default 1 GiB. */
    static long defaultHeapCap() { return Long.getLong("bufq.js.maxheap", 1L << 30); }

    private final ScriptContext session;
    private final long heapCap;
    private final List<Extensions.Check> checks = new ArrayList<>();
    private final List<Extensions.AdviseRule> rules = new ArrayList<>();
    private volatile JsContext host;
    /** The engine {@link #prepare} is starting in the background, until a script takes it. */
    private CompletableFuture<JsContext> starting;

    public Scripts(ScriptContext session) {
        this(session, defaultHeapCap());
    }

    /** @param heapCap bytes of heap a running script may hold (tests use a small cap) */
    public Scripts(ScriptContext session, long heapCap) {
        this.session = session;
        this.heapCap = heapCap;
    }

    /** Whether the JavaScript engine has been started (or is starting) in this session. */
    public synchronized boolean started() { return host != null || starting != null; }

    /**
     * Starts the engine on a daemon thread (the first start takes seconds): the REPL calls this at
     * an idle prompt. A script that comes meanwhile waits for that start instead of making its own.
     */
    @Override public synchronized void prepare() {
        if (host != null || starting != null) return;
        CompletableFuture<JsContext> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(new JsContext(session, this::addRule, this::rules, this::addCheck, heapCap));
            } catch (RuntimeException | LinkageError e) {
                f.completeExceptionally(e);  // the next script starts its own and reports why it cannot
            }
        }, "bufq-js-start");
        t.setDaemon(true);
        starting = f;
        t.start();
    }

    @Override public String extension() { return "js"; }

    /** True when {@code code} is visibly unfinished (open bracket, string, template, comment). Never starts the engine. */
    @Override public boolean incomplete(String code) { return JsSource.incomplete(code); }

    /** Reads each character once: a 100,000-line {@code js} statement in a script is linear. */
    @Override public UnfinishedCode unfinished() { return new JsSource.Scan(); }

    /**
     * Evaluates {@code code} ({@code js CODE}); prints the completion value unless it is undefined.
     *
     * @param sourceName how errors name the code, e.g. {@code js}
     */
    @Override public Status eval(String code, String sourceName) throws CommandException {
        JsContext h = host();
        boolean json = "json".equals(session.printer().format().name());
        String shown = run(h, () -> h.evalInline(code, sourceName, json ? Convert::json : Convert::display));
        if (shown != null) {
            try {
                if (json) session.printer().printJson(shown + "\n");  // a value as a JSON document, as every result in json
                else session.printer().sink().write(session.printer().forScreen(shown, false) + "\n");
            } catch (IOException e) {
                throw new CommandException("cannot write output: " + e.getMessage());
            }
        }
        return Status.OK;
    }

    /**
     * Runs a JavaScript file ({@code run FILE.js}, {@code -f FILE.js}, init.js); {@code file} as the
     * user wrote it: errors name it as written.
     */
    /** The largest JavaScript file bufq runs: anything bigger is data, not a script. */
    static final long MAX_SCRIPT_BYTES = 16L << 20;

    @Override public Status runFile(Path file) throws CommandException {
        return runFile(file, false);
    }

    /** @param sessionScope run in the session's scope (init.js), not in a scope of the file's own */
    private Status runFile(Path file, boolean sessionScope) throws CommandException {
        String text;
        try {
            UserPaths.requireRegularFile(file);
            if (Files.exists(file) && Files.size(file) > MAX_SCRIPT_BYTES)
                throw new IOException("larger than " + (MAX_SCRIPT_BYTES >> 20) + " MiB, not a script");
            byte[] bytes = Files.readAllBytes(file);
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (NoSuchFileException e) {
            throw new CommandException("cannot read " + file + ": no such file");
        } catch (CharacterCodingException e) {
            throw new CommandException(file + ": not UTF-8 text, not a script");
        } catch (IOException e) {
            throw new CommandException("cannot read " + file + ": " + UserPaths.message(e));
        }
        if (text.indexOf('\0') >= 0) throw new CommandException(file + ": binary data, not a script");
        JsContext h = host();
        run(h, () -> {
            h.evalFile(text, file.toString(), sessionScope);
            return null;
        });
        return Status.OK;
    }

    private <T> T run(JsContext h, Supplier<T> body) throws CommandException {
        try {
            return body.get();
        } catch (ScriptFailure e) {
            if (h.dead()) reset();
            throw new CommandException(e.getMessage());
        }
    }

    /**
     * {@code $XDG_CONFIG_HOME/bufq/init.js}, else {@code $HOME/.config/bufq/init.js}; null when neither
     * variable is set.
     */
    public static Path initFile(Env env) {
        String xdg = env.vars().get("XDG_CONFIG_HOME");
        if (xdg != null && !xdg.isBlank()) return Path.of(xdg, "bufq", "init.js");
        String home = env.vars().get("HOME");
        if (home != null && !home.isBlank()) return Path.of(home, ".config", "bufq", "init.js");
        return null;
    }

    /**
     * Runs init.js if it exists; an error in it is printed and the session goes on. The shell calls
     * this on the script's first need (see {@code InitScript}), not at start.
     */
    @Override public void runInit() {
        Path f = initFile(session.env());
        if (f == null || !Files.isRegularFile(f)) return;
        try {
            runFile(f, true);
        } catch (CommandException e) {
            session.printer().error(e.getMessage());
        }
    }

    /** Checks registered with {@code bufq.check}, in registration order (empty before any JavaScript ran). */
    @Override public List<Extensions.Check> checks() { return List.copyOf(checks); }

    /** Rules registered with {@code bufq.rule}, in registration order. */
    @Override public List<Extensions.AdviseRule> rules() { return List.copyOf(rules); }

    void addRule(Extensions.AdviseRule rule) {
        rules.removeIf(r -> r.name().equals(rule.name()));
        rules.add(rule);
    }

    void addCheck(Extensions.Check rule) {
        checks.removeIf(c -> c.name().equals(rule.name()));
        checks.add(rule);
    }

    /** Stops the running script, if any (Ctrl-C). Safe to call from another thread. */
    @Override public void cancel() {
        JsContext h = host;
        if (h != null) h.cancel();
    }

    /** The running host, or null (tests). */
    JsContext currentHost() { return host; }

    private JsContext host() throws CommandException {
        session.init().run();   // a script sees what init.js defined, as when init.js ran at start
        takeStarted();
        if (host != null && host.dead()) reset();
        if (host == null) {
            try {
                host = new JsContext(session, this::addRule, this::rules, this::addCheck, heapCap);
            } catch (RuntimeException | LinkageError e) {
                throw new CommandException("cannot start the JavaScript engine: " + e.getMessage());
            }
        }
        return host;
    }

    /** Waits for the engine {@link #prepare} is starting, if any, and makes it the host. */
    private void takeStarted() throws CommandException {
        CompletableFuture<JsContext> f;
        synchronized (this) {
            f = starting;
        }
        if (f == null) return;
        JsContext started;
        try {
            started = f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandException("cancelled (Ctrl-C)");  // the start goes on; the next script takes it
        } catch (ExecutionException e) {
            started = null;
        }
        synchronized (this) {
            if (starting == f) starting = null;
            if (host == null) host = started;
            else if (started != null) started.close();
        }
    }

    /**
     * Closes a stopped context. Its checks and rules stay registered: run, they fail with an error
     * until their script runs again and replaces them, so a CI {@code check} that a runaway script
     * reset goes red, not green with fewer checks. The message names them.
     */
    private void reset() {
        if (host != null) host.close();
        host = null;
        List<String> kept = new ArrayList<>();
        for (Extensions.Check c : checks) kept.add("check '" + c.name() + "'");
        for (Extensions.AdviseRule r : rules) kept.add("rule '" + r.name() + "'");
        session.printer().info("the JavaScript engine was reset: " + (kept.isEmpty() ? "no checks or rules were registered"
                : String.join(", ", kept) + (kept.size() == 1 ? " fails" : " fail") + " until its script runs again")
                + "; fields and tiling models from earlier scripts fail likewise");
    }

    /** Ends the session's JavaScript. */
    @Override public synchronized void close() {
        if (starting != null) starting.thenAccept(JsContext::close);
        starting = null;
        if (host != null) host.close();
        host = null;
    }
}
