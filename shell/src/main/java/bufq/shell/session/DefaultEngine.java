package bufq.shell.session;

import bufq.dump.DumpLoader;
import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.category.CategoryRules;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.FieldInfo;
import bufq.eval.ModuleRow;
import bufq.eval.Query;
import bufq.lang.Parser;
import bufq.lang.QueryException;
import bufq.model.DumpPart;
import bufq.model.HloModule;
import bufq.model.PartUnavailableException;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
import bufq.table.Output;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/** The real engine: {@code bufq.dump} reads dumps, {@code bufq.eval} compiles and runs queries. */
public final class DefaultEngine implements Engine {
    /** Made on first need ({@link #catalog()}): a batch summary or a prompt needs none (issue 34). */
    private volatile Catalog catalog;

    @Override public List<FoundModule> discover(List<Path> paths, Consumer<String> skipped) throws Failure {
        List<FoundModule> out = new ArrayList<>();
        try {
            for (ModuleSource s : DumpLoader.discover(paths, skipped)) out.add(source(s, Set.of()));
        } catch (LoadException e) {
            throw new Failure(e.getMessage());
        }
        return out;
    }

    /** {@code s}, read with {@code now} (the other parts on first use). */
    private FoundModule source(ModuleSource s, Set<DumpPart> now) {
        return new FoundModule() {
            @Override public String name() { return s.name(); }
            @Override public List<String> files() { return s.files(); }
            @Override public FoundModule reading(Set<DumpPart> parts) { return source(s, parts); }
            @Override public HloModule load() throws Failure {
                try {
                    return s.load(now);
                } catch (LoadException e) {
                    throw new Failure(e.getMessage());
                }
            }
        };
    }

    @Override public Set<DumpPart> needs(String query) {
        try {
            return Query.compile(query, catalog()).needs();
        } catch (QueryException e) {
            return Set.of();
        }
    }

    @Override public boolean unresolved(String query) {
        try {
            Parser.parse(query);
        } catch (QueryException e) {
            return false;
        }
        try {
            Query.compile(query, catalog());
            return false;
        } catch (QueryException e) {
            return true;
        }
    }

    @Override public List<String> entities() {
        Catalog c = catalog;
        return c == null ? Catalog.standardEntities() : c.entities();
    }

    @Override public List<Field> fields(String entity) {
        Catalog catalog = catalog();
        List<Field> out = new ArrayList<>();
        boolean entityNeeds = catalog.needs(entity, null).contains(DumpPart.USED_VALUES);
        for (FieldInfo f : catalog.fields(entity)) {
            boolean needs = entityNeeds || catalog.needs(entity, f.name()).contains(DumpPart.USED_VALUES);
            out.add(new Field(f.name(), f.type(), f.doc(), needs));
        }
        return out;
    }

    @Override public List<Output> query(String text, HloModule module, TilingModel tiling) throws Failure {
        return query(text, module, tiling, null);
    }

    @Override public List<Output> query(String text, HloModule module, TilingModel tiling, List<ModuleRow> modules) throws Failure {
        Query q;
        try {
            q = Query.compile(text, catalog());
        } catch (QueryException e) {
            throw new Failure(e.diagnostic().render(text));
        }
        try {
            // The parts it reads first, as a load: Ctrl-C stops the read, a changed file is one line.
            module.read(q.needs());
        } catch (PartUnavailableException e) {
            throw new Failure(e.getMessage());
        }
        try {
            return List.of(q.run(new EvalContext(module, tiling, modules)));
        } catch (QueryException e) {
            throw new Failure(e.diagnostic().render(text));
        }
    }

    @Override public Catalog catalog() {
        Catalog c = catalog;
        if (c != null) return c;
        synchronized (this) {
            if (catalog == null) catalog = Catalog.standard();
            return catalog;
        }
    }

    @Override public void addField(String entity, String name, ColumnType type, String doc,
                                   Function<Object, Object> fn) throws Failure {
        try {
            synchronized (this) {
                catalog = catalog().withField(entity, name, type, doc, fn);
            }
        } catch (IllegalArgumentException e) {
            throw new Failure(e.getMessage());
        }
    }

    @Override public synchronized void setCategories(CategoryRules rules) { catalog = catalog().withCategories(rules); }

    /** Replaces the catalog, e.g. with fields that scripts added ({@link Catalog#withField}). */
    public synchronized void setCatalog(Catalog c) { catalog = c; }
}
