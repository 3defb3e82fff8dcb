package bufq.shell.script;

import bufq.dump.DumpLoader;
import bufq.dump.LoadException;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.FieldInfo;
import bufq.eval.Query;
import bufq.lang.QueryException;
import bufq.model.Module;
import bufq.model.TilingModel;
import bufq.shell.Engine;
import bufq.table.ColumnType;
import bufq.table.Output;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/** The real reader and query language behind the shell, with a catalog scripts can extend. */
final class RealEngine implements Engine {
    private Catalog catalog = Catalog.standard();

    @Override public List<Module> load(List<Path> paths) throws Failure {
        try {
            return DumpLoader.load(paths);
        } catch (LoadException e) {
            throw new Failure(e.getMessage());
        }
    }

    @Override public List<String> entities() { return catalog.entities(); }

    @Override public List<Field> fields(String entity) {
        return catalog.fields(entity).stream().map((FieldInfo f) -> new Field(f.name(), f.type(), f.doc())).toList();
    }

    @Override public List<Output> query(String text, Module module, TilingModel tiling) throws Failure {
        try {
            return List.of(Query.compile(text, catalog).run(new EvalContext(module, tiling)));
        } catch (QueryException e) {
            throw new Failure(e.diagnostic().render(text));
        }
    }

    @Override public Catalog catalog() { return catalog; }

    @Override public void addField(String entity, String name, ColumnType type, String doc, Function<Object, Object> fn)
            throws Failure {
        try {
            catalog = catalog.withField(entity, name, type, doc, fn);
        } catch (IllegalArgumentException e) {
            throw new Failure(e.getMessage());
        }
    }
}
