package bufq.shell.session;

import bufq.model.LoadOptions;
import bufq.model.HloModule;
import bufq.model.LoadWarning;
import bufq.model.PartReadException;
import bufq.api.ModuleChoice;
import bufq.api.OomLog;
import bufq.format.Prose;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Consumer;

/**
 * A session's modules as commands see them ({@link CommandContext#modules()}): loading, the current
 * one, parsing a module found but not yet read, reading the parts a statement needs. Load warnings
 * are printed once per module, when it is parsed.
 */
public final class Modules {
    /** How many load warnings are printed per module before they are only counted. */
    static final int WARNINGS_SHOWN = 10;

    private final ModuleSet set = new ModuleSet();
    /** The load an interactive session started before its first prompt, until its outcome is shown; else null. */
    private volatile Background background;
    private final Engine engine;
    private final Env env;
    private final PrintStream err;
    private final DeferredReads deferred;
    /** The out-of-memory messages {@code oom} read last; null before any. */
    private volatile OomLog oom;
    /** Whether the user picked the current module ({@code use}, {@code --module}) or a choice was said. */
    private volatile boolean picked;
    /** A batch run: a command on one module, with several loaded and none picked, chooses (see {@link #requireFor}). */
    private volatile boolean batch;

    /** A line for stderr, fitted to the terminal's width when there is one ({@link Prose}). */
    private void warn(String line) {
        err.println(env.interactive() ? Prose.fit(line, Printer.columns(env)) : line);
    }

    public Modules(Engine engine, Env env, PrintStream err, DeferredReads deferred) {
        this.engine = engine;
        this.env = env;
        this.err = err;
        this.deferred = deferred;
    }

    /** Finds the modules of {@code paths} and adds them; the first becomes current (see {@link ModuleSet}). */
    public List<ModuleSet.Entry> load(List<Path> paths) throws Engine.Failure {
        return load(paths, LoadOptions.LAZY);
    }

    /** As {@link #load(List)}, reading what {@code options} asks with each module (a batch run's statements need it). */
    public List<ModuleSet.Entry> load(List<Path> paths, LoadOptions options) throws Engine.Failure {
        settle();
        return add(discover(paths), options);
    }

    /** Adds modules {@link #discover} found, reading what {@code options} asks with each; the first becomes current. */
    public List<ModuleSet.Entry> add(List<Engine.FoundModule> found, LoadOptions options) throws Engine.Failure {
        settle();
        if (options.readUsedValues()) found = found.stream().map(s -> s.reading(options)).toList();
        List<ModuleSet.Entry> added = set.add(found, line -> warn("bufq: warning: " + line));
        for (ModuleSet.Entry e : added) if (e.loaded() != null) reportWarnings(e.loaded(), this::warn);
        return added;
    }

    /**
     * Sets up the read of the one module of {@code found} on a thread of its own, started by {@link
     * #startLoading} (or by whatever waits for it), so that an interactive session shows its prompt
     * before the module is read (a 28 MB module took 1.6 s to its prompt, the read most of
     * it). Until the read ends {@link #current()} is null and {@link #loadingHandle()} names the
     * handle the module will have; every other use of the set waits for it. Its warnings, or why it
     * failed, are shown by the first {@link #awaitLoad}.
     */
    public void loadInBackground(Engine.FoundModule found) {
        if (background != null || set.size() > 0) throw new IllegalStateException("a background load is a session's first");
        Background b = new Background(ModuleSet.handleOfFirst(found));
        FutureTask<Void> task = new FutureTask<>(() -> {
            try {
                for (ModuleSet.Entry e : set.add(List.of(found))) if (e.loaded() != null) reportWarnings(e.loaded(), b.messages::add);
            } catch (Engine.Failure f) {
                b.messages.add("bufq: " + f.getMessage());
            }
            return null;
        });
        b.task = task;
        background = b;
    }

    /**
     * Starts the load {@link #loadInBackground} set up, unless it runs: the REPL calls this as it
     * shows its first prompt, so that the load does not take the two cores from the terminal's
     * set-up; whatever waits for the load starts it too.
     */
    public void startLoading() {
        Background b = background;
        if (b != null) b.start();
    }

    /** A load in the background: the handle its module gets, what it has to say, and the work. */
    private static final class Background {
        final String handle;
        final List<String> messages = new ArrayList<>();
        FutureTask<Void> task;
        private boolean started;

        Background(String handle) { this.handle = handle; }

        synchronized void start() {
            if (started) return;
            started = true;
            Thread t = new Thread(task, "bufq-load");
            t.setDaemon(true);
            t.start();
        }
    }

    /** While a background load runs, the handle its module will have; else null. */
    public String loadingHandle() {
        Background b = background;
        return b != null && !b.task.isDone() ? b.handle : null;
    }

    /**
     * Waits for a load started by {@link #loadInBackground} and shows, once, its warnings or why it
     * failed (to {@code show}, a line each). Ctrl-C (an interrupt) stops the wait, not the load.
     */
    public void awaitLoad(Consumer<String> show) throws CommandException {
        Background b = background;
        if (b == null) return;
        b.start();
        try {
            b.task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandException(CommandException.CANCELLED);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the load reports its own failures", e.getCause());
        }
        synchronized (this) {
            if (background != b) return;
            background = null;
        }
        b.messages.forEach(show);
    }

    /**
     * Waits for a background load without a word: what reads the set must not read it half made.
     * Ctrl-C (an interrupt, also one already set when the wait starts) ends the wait, not the load,
     * so a cancelled statement never waits for the rest of a load.
     *
     * @throws CancellationException when interrupted before the load ends; the flag stays set
     */
    private void settle() {
        Background b = background;
        if (b == null) return;
        b.start();
        try {
            b.task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("cancelled while " + b.handle + " was still loading");
        } catch (ExecutionException e) {
            throw new IllegalStateException("the load reports its own failures", e.getCause());
        }
    }

    /** The modules of {@code paths}, not yet parsed; the files a directory scan skipped are one warning line. */
    public List<Engine.FoundModule> discover(List<Path> paths) throws Engine.Failure {
        return engine.discover(paths, line -> warn("bufq: warning: " + line));
    }

    /** Adds modules already in memory (tests, scripts); the first becomes current. */
    public List<ModuleSet.Entry> addModules(List<HloModule> fresh) {
        settle();
        try {
            return set.add(fresh.stream().map(Engine.FoundModule::of).toList());
        } catch (Engine.Failure e) {
            throw new IllegalStateException("a module in memory cannot fail to load", e);
        }
    }

    /** The module of {@code e}, parsing it now if it is not in memory (its warnings are printed then). */
    public HloModule module(ModuleSet.Entry e) throws Engine.Failure {
        settle();
        boolean fresh = e.loaded() == null;
        HloModule m = set.get(e);
        if (fresh) reportWarnings(m, this::warn);
        return m;
    }

    /**
     * Calls {@code visit} with every module in turn, parsing those not in memory; shows progress on
     * a terminal when that takes a while, and stops with "cancelled" when the thread is interrupted
     * (Ctrl-C in the REPL).
     */
    public void forEachModule(ModuleVisitor visit) throws Engine.Failure, CommandException {
        settle();
        List<ModuleSet.Entry> all = set.entries();
        boolean progress = env.interactive() && all.stream().filter(e -> e.loaded() == null).count() > 1;
        try {
            for (int i = 0; i < all.size(); i++) {
                if (Thread.currentThread().isInterrupted()) throw new CommandException(CommandException.CANCELLED);
                if (progress && all.get(i).loaded() == null) {
                    err.print("\rreading module " + (i + 1) + "/" + all.size() + " ");
                    err.flush();
                }
                visit.accept(module(all.get(i)));
            }
        } finally {
            if (progress) {
                err.print("\r\033[K");
                err.flush();
            }
        }
    }

    /** What {@link #forEachModule} calls. */
    public interface ModuleVisitor {
        void accept(HloModule m) throws Engine.Failure, CommandException;
    }

    /** Reads {@code m}'s Used values section if not read yet, as a load: Ctrl-C stops it, a failure is one line. */
    public void readUsedValues(HloModule m) throws CommandException {
        try {
            deferred.read(m);
        } catch (PartReadException e) {
            throw CommandException.of(e);
        }
    }

    /** Every module found, parsed or not, and which is current (after a background load). */
    public ModuleSet set() {
        settle();
        return set;
    }

    /** The current module, or null before anything is loaded and while a background load runs (never waits). */
    public HloModule current() {
        Background b = background;
        return b != null && !b.task.isDone() ? null : set.current();
    }

    /** The current module once a read behind the prompt has ended (what Tab completes from); null before any load. */
    public HloModule currentOnceRead() {
        settle();
        return set.current();
    }

    /** The current module. */
    public HloModule require() throws CommandException {
        settle();
        if (set.current() == null) throw new CommandException("no module loaded (use 'load PATH')");
        return set.current();
    }

    /** Keeps {@code o} for {@code fit} and {@code advise}, which take the failure it names as evidence. */
    public void setOom(OomLog o) { oom = o; }

    /** The messages {@code oom} read last, or null. */
    public OomLog oom() { return oom; }

    /** Every loaded module, in running order, when out-of-memory messages are loaded to join them to; else none. */
    public List<HloModule> joinedToOom() throws Engine.Failure, CommandException {
        List<HloModule> modules = new ArrayList<>();
        if (oom != null) forEachModule(modules::add);
        return modules;
    }

    /** Marks this a batch run: see {@link #requireFor}. */
    public void batch() { batch = true; }

    /**
     * The module a command that works on one module runs on: the current one, except in a batch run
     * over several modules none of which the user picked. It then takes the module the loaded
     * out-of-memory message names, else the one that needs the most bytes (needs_bytes, as in
     * 'modules'), makes it current, and says which to {@code say}, once:
     * {@code advise: jit_loss (module 5 of 5; --module NAME picks another)}.
     */
    public HloModule requireFor(String command, Consumer<String> say) throws CommandException, Engine.Failure {
        HloModule current = require();
        if (!batch || picked || set.size() < 2) return current;
        picked = true;
        List<HloModule> all = new ArrayList<>();
        forEachModule(all::add);
        ModuleChoice choice = ModuleChoice.of(all, oom);
        String chosen = choice.handle(), why = choice.why();
        List<ModuleSet.Entry> entries = set.entries();
        int k = 0;
        for (int i = 0; i < entries.size(); i++) if (entries.get(i).handle().equals(chosen)) k = i;
        set.use(entries.get(k));
        say.accept(command + ": " + chosen + " (module " + (k + 1) + " of " + entries.size() + ", " + why
                + "; --module NAME picks another)");
        return set.current();
    }

    /**
     * Makes the module {@code handle} current as evidence points to it (an out-of-memory message names
     * it), not as the user picked it: a batch run's per-module commands still say which they took and why.
     */
    public HloModule point(String handle) throws CommandException, Engine.Failure {
        boolean was = picked;
        HloModule m = use(handle);
        picked = was;
        return m;
    }

    /** Makes the module called {@code name} (handle, number or unique prefix) current, parsing it if needed. */
    public HloModule use(String name) throws CommandException, Engine.Failure {
        settle();
        picked = true;
        ModuleSet.Entry e = set.find(name);
        boolean fresh = e.loaded() == null;
        set.use(e);
        if (fresh) reportWarnings(e.loaded(), this::warn);
        return e.loaded();
    }

    /**
     * The modules parsed so far; none while a background load runs (never waits: what a statement
     * read is reported after it, and a cancelled statement returns at once).
     */
    public List<HloModule> loaded() {
        Background b = background;
        if (b != null && !b.task.isDone()) return List.of();
        List<HloModule> out = new ArrayList<>();
        for (ModuleSet.Entry e : set.entries()) if (e.loaded() != null) out.add(e.loaded());
        return out;
    }

    private void reportWarnings(HloModule m, Consumer<String> show) {
        deferred.loaded(m);
        List<LoadWarning> w = m.warnings();
        for (int i = 0; i < Math.min(w.size(), WARNINGS_SHOWN); i++) show.accept("bufq: warning: " + w.get(i));
        if (w.size() > WARNINGS_SHOWN)
            show.accept("bufq: warning: " + (w.size() - WARNINGS_SHOWN) + " more warnings in " + m.handle());
    }
}
