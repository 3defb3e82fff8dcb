package bufq.shell.session;

import bufq.category.CategoryRules;
import bufq.eval.Catalog;
import bufq.eval.ModuleRow;
import bufq.model.DumpPart;
import bufq.model.HloModule;
import bufq.model.PartUnavailableException;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
import bufq.table.Output;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

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
         * This source, whose {@link #load()} also reads {@code parts} (in the load itself where the
         * engine can: a batch run whose statements need them reads them in the same parallel pass).
         */
        default FoundModule reading(Set<DumpPart> parts) {
            FoundModule self = this;
            return new FoundModule() {
                @Override public String name() { return self.name(); }
                @Override public List<String> files() { return self.files(); }
                @Override public HloModule load() throws Failure {
                    HloModule m = self.load();
                    try {
                        m.read(parts);
                    } catch (PartUnavailableException e) {
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

    /** Compiles and runs {@code query} on {@code module}; a failure's message is the rendered diagnostic. */
    List<Output> query(String query, HloModule module, TilingModel tiling) throws Failure;

    /** As {@link #query(String, HloModule, TilingModel)}, the {@code modules} entity listing {@code modules}. */
    default List<Output> query(String query, HloModule module, TilingModel tiling, List<ModuleRow> modules) throws Failure {
        return query(query, module, tiling);
    }

    /** The catalog queries are checked against: the standard fields plus those scripts added. */
    default Catalog catalog() { return Catalog.standard(); }

    /**
     * The dump parts {@code query} reads, as its compilation against {@link #catalog()} says; none
     * when it does not compile, and none for an engine whose modules are always whole (a fake).
     */
    default Set<DumpPart> needs(String query) { return Set.of(); }

    /**
     * Whether {@code query} parses but does not check against {@link #catalog()} as it is now: it may
     * name a field a script has yet to define. False when it compiles, and for a syntax error, which
     * no field mends (and for a fake engine).
     */
    default boolean unresolved(String query) { return false; }

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
     * {@code rules} ({@code set category}, a script's {@code bufq.category}).
     */
    default void setCategories(CategoryRules rules) throws Failure {
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
