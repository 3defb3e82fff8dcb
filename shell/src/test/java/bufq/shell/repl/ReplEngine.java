package bufq.shell.repl;

import bufq.dump.DumpLoader;
import bufq.dump.file.LoadException;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.FieldInfo;
import bufq.eval.Query;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.shell.session.Engine;
import bufq.table.Output;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The real reader and query engine behind the {@link Engine} interface, for REPL tests that must
 * not depend on how the CLI wires its default engine. {@code slow} makes every query wait until its
 * thread is interrupted, to test Ctrl-C.
 */
final class ReplEngine implements Engine {
    volatile boolean slow;
    /** Counted down when a slow query starts waiting. */
    final java.util.concurrent.CountDownLatch slowStarted = new java.util.concurrent.CountDownLatch(1);

    static Path example() {
        return Path.of(System.getProperty("bufq.root", ".")).resolve("examples/seeds/004_0cb419b3147a3cb6.txt");
    }

    @Override public List<FoundModule> discover(List<Path> paths, Consumer<String> skipped) throws Failure {
        try {
            List<FoundModule> out = new ArrayList<>();
            for (HloModule m : DumpLoader.load(paths)) out.add(FoundModule.of(m));
            return out;
        } catch (LoadException e) {
            throw new Failure(e.getMessage());
        }
    }

    @Override public List<String> entities() { return Catalog.standard().entities(); }

    @Override public List<Field> fields(String entity) {
        List<Field> out = new ArrayList<>();
        for (FieldInfo f : Catalog.standard().fields(entity)) out.add(new Field(f.name(), f.type(), f.doc()));
        return out;
    }

    /** Compiled when it runs, with the standard catalog (the slow wait comes first). */
    @Override public Compiled compile(String query) {
        return new Compiled() {
            @Override public String text() { return query; }
            @Override public String entity() { return query.strip().split("\\s+", 2)[0].toLowerCase(java.util.Locale.ROOT); }
            @Override public boolean readsUsedValues() { return false; }
            @Override public List<String> unresolved() { return List.of(); }
            @Override public String diagnostic() { return null; }
            @Override public List<Output> run(HloModule module, TilingModel tiling, List<bufq.eval.ModuleRow> modules) throws Failure {
                return ReplEngine.this.run(query, module, tiling);
            }
        };
    }

    private List<Output> run(String query, HloModule module, TilingModel tiling) throws Failure {
        try {
            if (slow) {
                try {
                    slowStarted.countDown();
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();  // as the evaluator would see it
                }
            }
            return List.of(Query.compile(query, Catalog.standard()).run(new EvalContext(module, tiling)));
        } catch (QueryException e) {
            throw new Failure(e.diagnostic().render(query));
        }
    }
}
