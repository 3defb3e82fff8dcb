package bufq.shell.session;

import bufq.api.Load;
import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.FieldInfo;
import bufq.eval.ModuleRow;
import bufq.eval.Query;
import bufq.eval.Selection;
import bufq.lang.Ast;
import bufq.lang.Diagnostic;
import bufq.lang.QueryException;
import bufq.model.LoadOptions;
import bufq.model.HloModule;
import bufq.model.PartReadException;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
import bufq.table.Output;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** The real engine: {@code bufq.api} finds and reads dumps, {@code bufq.eval} compiles and runs queries. */
public final class DefaultEngine implements Engine {
    /** Made on first need ({@link #catalog()}): a batch summary or a prompt needs none. */
    private volatile Catalog catalog;
    private final LongAdder parses = new LongAdder();

    @Override public List<FoundModule> discover(List<Path> paths, Consumer<String> skipped) throws Failure {
        List<FoundModule> out = new ArrayList<>();
        try {
            for (ModuleSource s : Load.discover(paths, skipped)) out.add(source(s, LoadOptions.LAZY));
        } catch (LoadException e) {
            throw new Failure(e.getMessage());
        }
        return out;
    }

    /** {@code s}, read as {@code options} asks (the rest on first use). */
    private FoundModule source(ModuleSource s, LoadOptions options) {
        return new FoundModule() {
            @Override public String name() { return s.name(); }
            @Override public List<String> files() { return s.files(); }
            @Override public FoundModule reading(LoadOptions o) { return source(s, o); }
            @Override public HloModule load() throws Failure {
                try {
                    return s.load(options);
                } catch (LoadException e) {
                    throw new Failure(e.getMessage());
                }
            }
        };
    }

    @Override public List<String> entities() {
        Catalog c = catalog;
        return c == null ? Catalog.standardEntities() : c.entities();
    }

    @Override public List<Field> fields(String entity) {
        Catalog catalog = catalog();
        List<Field> out = new ArrayList<>();
        boolean entityNeeds = catalog.readsUsedValues(entity, null);
        for (FieldInfo f : catalog.fields(entity)) {
            boolean needs = entityNeeds || catalog.readsUsedValues(entity, f.name());
            out.add(new Field(f.name(), f.type(), f.doc(), needs));
        }
        return out;
    }

    @Override public Compiled compile(String text) {
        parses.increment();
        Ast.Query ast;
        try {
            ast = Query.parse(text);
        } catch (QueryException e) {
            return new Checked(text, null, null, null, e);
        }
        return check(text, ast, catalog());
    }

    private Checked check(String text, Ast.Query ast, Catalog catalog) {
        try {
            return new Checked(text, ast, catalog, Query.check(text, ast, catalog), null);
        } catch (QueryException e) {
            return new Checked(text, ast, catalog, null, e);
        }
    }

    @Override public Selection where(String entity, String condition, int offset) {
        parses.increment();
        return Selection.where(entity, condition, offset, catalog());
    }

    /**
     * How many queries and conditions this engine has parsed: each statement's once, however often the shell asks
     * what it needs or whether it waits for init.js (tests hold it to that).
     */
    public long parses() { return parses.sum(); }

    /**
     * A query parsed once and checked against {@code catalog}: {@code query} when it checks, else
     * {@code error}; {@code ast} is null for a syntax error.
     */
    private final class Checked implements Compiled {
        private final String text;
        private final Ast.Query ast;
        private final Catalog catalog;
        private final Query query;
        private final QueryException error;

        Checked(String text, Ast.Query ast, Catalog catalog, Query query, QueryException error) {
            this.text = text;
            this.ast = ast;
            this.catalog = catalog;
            this.query = query;
            this.error = error;
        }

        @Override public String text() { return text; }
        @Override public String entity() { return ast == null ? "" : ast.entity().text().toLowerCase(Locale.ROOT); }
        @Override public boolean readsUsedValues() { return query != null && query.readsUsedValues(); }

        @Override public List<String> unresolved() {
            if (query != null || ast == null) return List.of();
            List<String> unknown = Query.unknownFields(ast, catalog);
            if (!unknown.isEmpty()) return unknown;
            var d = error.diagnostic();
            int s = Math.min(d.start(), text.length()), e = Math.min(Math.max(d.end(), s), text.length());
            return List.of(s < e ? text.substring(s, e) : text.strip());
        }

        @Override public String diagnostic() { return error == null ? null : error.diagnostic().render(text); }

        @Override public Diagnostic problem() { return error == null ? null : error.diagnostic(); }

        /** Checked again only when a script changed the catalog since (bufq.field): never parsed again. */
        @Override public Compiled current() {
            Catalog now = catalog();
            return ast == null || now == catalog ? this : check(text, ast, now);
        }

        @Override public List<Output> run(HloModule module, TilingModel tiling, List<ModuleRow> modules) throws Failure {
            Query q = compiled();
            try {
                // The parts it reads first, as a load: Ctrl-C stops the read, a changed file is one line.
                if (q.readsUsedValues()) module.usedValues().read();
            } catch (PartReadException e) {
                throw new Failure(e.getMessage());
            }
            try {
                return List.of(q.run(new EvalContext(module, tiling, modules)));
            } catch (QueryException e) {
                throw new Failure(e.diagnostic().render(text));
            }
        }

        @Override public Selection selection() throws Failure { return Selection.of(compiled()); }

        private Query compiled() throws Failure {
            if (query == null) throw new Failure(diagnostic());
            return query;
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

    @Override public synchronized void setCategories(UnaryOperator<Catalog> change) { catalog = change.apply(catalog()); }

    /** Replaces the catalog, e.g. with fields that scripts added ({@link Catalog#withField}). */
    public synchronized void setCatalog(Catalog c) { catalog = c; }
}
