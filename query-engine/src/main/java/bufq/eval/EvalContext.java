package bufq.eval;

import bufq.model.HloModule;
import bufq.model.TilingModel;

/** What a query runs against: a module and the tiling model that defines {@code padded_size} (null = TPU). */
public record EvalContext(HloModule module, TilingModel tiling) {
    public EvalContext {
        if (tiling == null) tiling = TilingModel.TPU;
    }

    public EvalContext(HloModule module) { this(module, TilingModel.TPU); }
}
