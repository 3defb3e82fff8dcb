package bufq.eval;

import bufq.model.HloModule;
import bufq.model.TilingModel;

import java.util.List;

/**
 * What a query runs against: a module, the tiling model that defines {@code padded_size} (null =
 * TPU), and the rows of the {@code modules} entity (null: the one module, current).
 */
public record EvalContext(HloModule module, TilingModel tiling, List<ModuleRow> modules) {
    public EvalContext {
        if (tiling == null) tiling = TilingModel.TPU;
        if (modules != null) modules = List.copyOf(modules);
    }

    public EvalContext(HloModule module, TilingModel tiling) { this(module, tiling, null); }

    public EvalContext(HloModule module) { this(module, TilingModel.TPU); }

    /** The {@code modules} entity's rows: the session's modules, or this one alone. */
    public List<ModuleRow> moduleRows() {
        return modules != null ? modules : List.of(ModuleRow.of(module, true));
    }
}
