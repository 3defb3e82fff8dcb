package bufq.shell.session;

import bufq.model.DumpPart;
import bufq.model.HloModule;
import bufq.model.LoadWarning;
import bufq.model.PartUnavailableException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A session's modules as commands see them ({@link CommandContext#modules()}): loading, the current
 * one, parsing a module found but not yet read, reading the parts a statement needs. Load warnings
 * are printed once per module, when it is parsed.
 */
public final class Modules {
    /** How many load warnings are printed per module before they are only counted. */
    static final int WARNINGS_SHOWN = 10;

    private final ModuleSet set = new ModuleSet();
    private final Engine engine;
    private final Env env;
    private final PrintStream err;
    private final DeferredReads deferred;

    Modules(Engine engine, Env env, PrintStream err, DeferredReads deferred) {
        this.engine = engine;
        this.env = env;
        this.err = err;
        this.deferred = deferred;
    }

    /** Finds the modules of {@code paths} and adds them; the first becomes current (see {@link ModuleSet}). */
    public List<ModuleSet.Entry> load(List<Path> paths) throws Engine.Failure {
        return load(paths, Set.of());
    }

    /** As {@link #load(List)}, reading {@code parts} with each module (a batch run's statements need them). */
    public List<ModuleSet.Entry> load(List<Path> paths, Set<DumpPart> parts) throws Engine.Failure {
        List<Engine.FoundModule> found = discover(paths);
        if (!parts.isEmpty()) found = found.stream().map(s -> s.reading(parts)).toList();
        List<ModuleSet.Entry> added = set.add(found, line -> err.println("bufq: warning: " + line));
        for (ModuleSet.Entry e : added) if (e.loaded() != null) reportWarnings(e.loaded());
        return added;
    }

    /** The modules of {@code paths}, not yet parsed; the files a directory scan skipped are one warning line. */
    public List<Engine.FoundModule> discover(List<Path> paths) throws Engine.Failure {
        return engine.discover(paths, line -> err.println("bufq: warning: " + line));
    }

    /** Adds modules already in memory (tests, scripts); the first becomes current. */
    public List<ModuleSet.Entry> addModules(List<HloModule> fresh) {
        try {
            return set.add(fresh.stream().map(Engine.FoundModule::of).toList());
        } catch (Engine.Failure e) {
            throw new IllegalStateException("a module in memory cannot fail to load", e);
        }
    }

    /** The module of {@code e}, parsing it now if it is not in memory (its warnings are printed then). */
    public HloModule module(ModuleSet.Entry e) throws Engine.Failure {
        boolean fresh = e.loaded() == null;
        HloModule m = set.get(e);
        if (fresh) reportWarnings(m);
        return m;
    }

    /**
     * Calls {@code visit} with every module in turn, parsing those not in memory; shows progress on
     * a terminal when that takes a while, and stops with "cancelled" when the thread is interrupted
     * (Ctrl-C in the REPL).
     */
    public void forEachModule(ModuleVisitor visit) throws Engine.Failure, CommandException {
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

    /** Reads {@code parts} of {@code m} not read yet, as a load: Ctrl-C stops it, a failure is one line. */
    public void readParts(HloModule m, Set<DumpPart> parts) throws CommandException {
        try {
            deferred.read(m, parts);
        } catch (PartUnavailableException e) {
            throw new CommandException(e.cancelled() ? CommandException.CANCELLED : e.getMessage());
        }
    }

    /** Every module found, parsed or not, and which is current. */
    public ModuleSet set() { return set; }

    /** The current module, or null before anything is loaded. */
    public HloModule current() { return set.current(); }

    /** The current module. */
    public HloModule require() throws CommandException {
        if (set.current() == null) throw new CommandException("no module loaded (use 'load PATH')");
        return set.current();
    }

    /** Makes the module called {@code name} (handle, number or unique prefix) current, parsing it if needed. */
    public HloModule use(String name) throws CommandException, Engine.Failure {
        ModuleSet.Entry e = set.find(name);
        boolean fresh = e.loaded() == null;
        set.use(e);
        if (fresh) reportWarnings(e.loaded());
        return e.loaded();
    }

    /** The modules parsed so far. */
    List<HloModule> loaded() {
        List<HloModule> out = new ArrayList<>();
        for (ModuleSet.Entry e : set.entries()) if (e.loaded() != null) out.add(e.loaded());
        return out;
    }

    private void reportWarnings(HloModule m) {
        deferred.loaded(m);
        List<LoadWarning> w = m.warnings();
        for (int i = 0; i < Math.min(w.size(), WARNINGS_SHOWN); i++) err.println("bufq: warning: " + w.get(i));
        if (w.size() > WARNINGS_SHOWN)
            err.println("bufq: warning: " + (w.size() - WARNINGS_SHOWN) + " more warnings in " + m.handle());
    }
}
