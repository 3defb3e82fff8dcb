package bufq.shell.command;

import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.Shape;
import bufq.model.TilingModel;
import bufq.shell.session.CommandException;

import java.util.HashSet;
import java.util.Set;

/**
 * Tries a tiling model on the current module's shapes before {@code set tiling} picks it, so a
 * script's broken model is refused at {@code set} time instead of failing the next query.
 */
final class TilingTrial {
    /** Distinct shapes tried: enough to meet every dtype and rank a dump uses, cheap for a script. */
    static final int SHAPES = 64;

    private TilingTrial() {}

    /** Throws, naming the model and the shape it failed on, when {@code model} gives no size for one of {@code m}'s shapes. */
    static void check(TilingModel model, HloModule m, String kept) throws CommandException {
        if (model == null || m == null) return;
        Set<Shape> seen = new HashSet<>();
        for (HloValue v : m.values()) {
            if (!seen.add(v.shape())) continue;
            try {
                model.paddedBytes(v, m);
            } catch (TilingModel.TilingFailure f) {
                throw new CommandException(f.getMessage() + " (tiling stays " + kept + ")");
            }
            if (seen.size() >= SHAPES) return;
        }
    }
}
