package bufq.shell.session;

import bufq.eval.Catalog;
import bufq.eval.ModuleRow;
import bufq.eval.Selection;
import bufq.lang.Diagnostic;
import bufq.model.LoadOptions;
import bufq.model.HloModule;
import bufq.model.PartReadException;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
import bufq.table.Output;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What the shell needs from the query engine: reading dumps and answering queries. The real one
 * ({@link DefaultEngine}) wraps {@code bufq.dump} and {@code bufq.eval}; tests pass a fake.
 */
public interface Engine {
    /**
     * Finds the modules named by {@code paths} without parsing them; a failure's message is one line
     * naming the file (and line). Each directory that holds files it cannot read as a module says
     * so to {@code skipped} in one line naming them (and why).
     */
    List<FoundModule> discover(List<Path> paths, Consumer<String> skipped) throws Failure;

    /** A module found but not yet parsed. */
    interface FoundModule {
        /** Program name ({@code jit_step}), or the file stem. */
        String name();

        List<String> files();

        /** Parses the module; the failure message is one line naming file and line. */
        HloModule load() throws Failure;

        /**
         * This source, whose {@link #load()} reads what {@code options} asks (in the load itself where
         * the engine can: a batch run whose statements need the Used values section reads it in the
         * same parallel pass).
         */
        default FoundModule reading(LoadOptions options) {
            FoundModule self = this;
            return new FoundModule() {
                @Override public String name() { return self.name(); }
                @Override public List<String> files() { return self.files(); }
                @Override public HloModule load() throws Failure {
                    HloModule m = self.load();
                    try {
                        if (options.readUsedValues()) m.usedValues().read();
                    } catch (PartReadException e) {
                        throw new Failure(e.getMessage());
                    }
                    return m;
                }
            };
        }

        /** A source for a module already in memory. */
        static FoundModule of(HloModule m) {
            return new FoundModule() {
                @Override public String name() { return m.handle(); }
                @Override public List<String> files() { return m.info().files(); }
                @Override public HloModule load() { return m; }
            };
        }
    }

    /** Entity names; a line starting with one of them is a query. */
    List<String> entities();

    /** Fields of an entity, in catalog order; empty for an unknown entity. */
    List<Field> fields(String entity);

    /**
     * Compiles {@code text}, a query, once against {@link #catalog()}: parsed here and never again
     * (the shell counts on one parse a statement). Never throws: a query that does not compile
     * carries its diagnostic and fails when run.
     */
    Compiled compile(String text);

    /** Compiles and runs {@code query} on {@code module} (scripts' {@code bufq.query}, whatif's query). */
    default List<Output> query(String query, HloModule module, TilingModel tiling) throws Failure {
        return compile(query).run(module, tiling, null);
    }

    /**
     * A query compiled once, kept by the statement that holds it and run on any module. Immutable:
     * against a catalog that changed it is checked again ({@link #current}), from its parsed tree.
     */
    interface Compiled {
        /** The query as written. */
        String text();

        /** The entity it queries, lowercase as the catalog names it; empty when it does not parse. */
        String entity();

        /** The dump parts it reads, as its compilation says; none when it does not compile. */
        boolean readsUsedValues();

        /**
         * What did not resolve when it parses but does not check against the catalog: the fields it
         * names that the catalog lacks (a script may define them), else the name the check stopped
         * at (a script may redefine it). Empty when it compiles, and for a syntax error, which no
         * field mends.
         */
        List<String> unresolved();

        /** The rendered diagnostic (the query, a caret, the message) when it does not compile; else null. */
        String diagnostic();

        /** The diagnostic itself, in the query's own columns, when it does not compile; else null. */
        default Diagnostic problem() { return null; }

        /**
         * This query against the catalog as it is now: itself while the catalog is the one it was
         * checked against, else checked again without parsing (init.js may have defined a field it names).
         */
        default Compiled current() { return this; }

        /**
         * Runs on {@code module}, reading the parts it needs first; {@code modules} lists the
         * {@code modules} entity's rows (null: none). The failure message is the rendered diagnostic.
         */
        List<Output> run(HloModule module, TilingModel tiling, List<ModuleRow> modules) throws Failure;

        /** The rows it selects, for a command that acts on them ({@code why}); fails with its diagnostic. */
        default Selection selection() throws Failure {
            throw new Failure("this engine cannot select rows");
        }
    }

    /**
     * The rows of {@code entity} that {@code condition} keeps ({@code fit where COND}, whatif's
     * {@code where}), compiled once against {@link #catalog()}: its errors point into the condition,
     * at {@code offset} in the caller's text ({@link Selection#where}).
     */
    default Selection where(String entity, String condition, int offset) {
        return Selection.where(entity, condition, offset, catalog());
    }

    /** The catalog queries are checked against: the standard fields plus those scripts added. */
    default Catalog catalog() { return Catalog.standard(); }

    /**
     * Adds (or replaces) a field computed by {@code fn} from a row (scripts' {@code bufq.field});
     * later queries, {@code fields} and completion see it. The message of a failure says why the
     * name or entity was refused.
     */
    default void addField(String entity, String name, ColumnType type, String doc, Function<Object, Object> fn) throws Failure {
        throw new Failure("this engine cannot add fields");
    }

    /**
     * Makes the {@code category} fields, and the commands that read {@link #catalog()}'s rules, follow
     * the rules {@code change} gives the catalog ({@code set category}, a script's {@code bufq.category};
     * see {@link bufq.api.Categorize}).
     */
    default void setCategories(UnaryOperator<Catalog> change) throws Failure {
        throw new Failure("this engine cannot take category rules");
    }

    /**
     * A field of an entity, for {@code fields} and completion; {@code needsValues}: reading it reads
     * the module's Used values section (the values file of a four-file set) if it is not read yet.
     */
    record Field(String name, ColumnType type, String doc, boolean needsValues) {
        public Field(String name, ColumnType type, String doc) { this(name, type, doc, false); }
    }

    /** A user-caused failure: bad dump, bad query. The message is ready to print. */
    final class Failure extends Exception {
        public Failure(String message) { super(message, null, false, false); }
    }
}
