package bufq.shell;

import bufq.model.Module;
import bufq.model.TilingModel;
import bufq.table.Output;

import java.nio.file.Path;
import java.util.List;

/**
 * The engine of the real program. TEMPORARY: the dump reader (bufq.dump) and the query language
 * (bufq.eval) have not landed on main yet; this says so instead of pretending. Replaced by the
 * real wiring as soon as they are merged.
 */
final class DefaultEngine implements Engine {
    @Override public List<Module> load(List<Path> paths) throws Failure {
        throw new Failure("this build has no dump reader yet (bufq.dump not merged)");
    }

    @Override public List<String> entities() { return List.of("values", "allocations", "instructions", "steps"); }

    @Override public List<Field> fields(String entity) { return List.of(); }

    @Override public List<Output> query(String query, Module module, TilingModel tiling) throws Failure {
        throw new Failure("this build has no query engine yet (bufq.eval not merged)");
    }
}
