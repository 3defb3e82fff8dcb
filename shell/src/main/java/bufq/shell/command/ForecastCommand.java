package bufq.shell.command;

import bufq.lang.QueryException;
import bufq.api.CapacitySaid;
import bufq.api.ForecastRequest;
import bufq.api.Forecasts;
import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ForecastArgs;
import bufq.shell.api.CommandContext;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code forecast [DIM] at N} and {@code forecast [DIM] fit [at N]}: the peak and needs of a program
 * loaded at several sizes, at a size never compiled, and the largest size that fits. A thin
 * adapter over {@link Forecasts}.
 */
final class ForecastCommand implements Command {
    /** Values pair on op_name and source, which the Used values section gives. */

    @Override public String name() { return "forecast"; }
    @Override public ArgGrammar grammar() { return ForecastArgs.GRAMMAR; }
    @Override public String brief() { return "The peak at a size never compiled, from one program loaded at several sizes."; }

    @Override public String description() {
        return "Takes the loaded modules that are one program compiled at several sizes (bufq b8/ b16/ b32/: a "
                + "series; the current module's program, or the one loaded more than once). Values pair across the "
                + "sizes as in 'diff' (op_name, source line, role); the entry parameter dimension that varies is the "
                + "size N (or DIM, e.g. x[0] or x.1[1]). Each dimension of each value's shape is fitted as an affine "
                + "law of N (two sizes fit it, more check it), the bytes are the shape's at N with element size and "
                + "tiling, and the program at N is swept as a compiled module (the sweep of 'peak' and 'whatif') on the "
                + "schedule of the loaded size nearest N. Prints the forecast peak, its step, what holds it (each value "
                + "with its law, and by category), each loaded size forecast from the others (leave-one-out: how far to "
                + "trust it) and the laws, largest first ('limit K' rows, default 20, -1 for all).\n"
                + "'fit' takes the capacity as 'fit' does (set capacity, set device, --capacity, --device) and prints "
                + "the largest N that fits: by needs_bytes alone, by the peak, and with the arrays 'fit' holds (the "
                + "other loaded programs run first). 'fit at N' fails (exit 1 under --bail) when N does not fit.\n"
                + "Modules that are no series are refused with the values that did not pair or fit, and why.\n"
                + "'chips at N' takes the current module alone, an SPMD compile whose sharding is read from its HLO text, and "
                + "forecasts its per-device bytes on N devices: entry parameters cut over every device follow the law of "
                + "their sharding (1/N each), parameters cut fewer ways and values of a sharded parameter's per-device shape "
                + "(gradients, updates) are assumed to follow it, replicated parameters stay whole, and every other value is "
                + "held at its size (the partitioner re-cuts temporaries at another mesh size, which no dump of this one "
                + "says); the peak at N is the module swept with those sizes. 'chips fit' prints the fewest devices whose "
                + "peak fits the capacity.";
    }

    @Override public List<String> examples() {
        return List.of("forecast at 64", "forecast x[0] at 128 limit 5", "forecast fit", "forecast fit at 64", "forecast chips at 8", "forecast chips fit");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        // The series' modules, not only the current one: run() reads their Used values sections.
        ForecastRequest r = ForecastArgs.request(args);
        return new CommandPlan.Simple(true, false, false, c -> run(c, r));
    }

    /** {@code forecast chips}: the current module on another number of devices. */
    private static Status chips(CommandContext ctx, ForecastRequest r, CapacitySaid capacity) throws CommandException, IOException {
        HloModule m = ctx.modules().current();
        if (m == null) throw new CommandException("forecast chips: no module is loaded; load an SPMD compile with its HLO text");
        ctx.modules().readUsedValues(m);
        try {
            ctx.out().print(Forecasts.chips(m, r, capacity, ctx.engine().catalog(), ctx.settings().tiling(), ctx.settings()::tilingNamed));
            return Status.OK;
        } catch (IllegalArgumentException | QueryException e) {
            throw new CommandException("forecast chips: " + e.getMessage());
        }
    }

    private Status run(CommandContext ctx, ForecastRequest r) throws CommandException, Engine.Failure, IOException {
        CapacitySaid capacity = ctx.settings().capacitySaid();
        if (r.fit()) FitCommand.requireCapacity(capacity);
        if (r.chips()) return chips(ctx, r, capacity);
        List<HloModule> loaded = new ArrayList<>();
        ctx.modules().forEachModule(loaded::add);
        try {
            Forecasts.Series series = Forecasts.series(loaded, ctx.modules().current());
            for (HloModule m : series.modules()) ctx.modules().readUsedValues(m);
            Forecasts.Answer answer = series.answer(r, capacity);
            ctx.out().print(answer.outputs());
            if (answer.failure() == null) return Status.OK;
            ctx.out().error("forecast fit: " + answer.failure());
            return Status.ERROR;
        } catch (Forecasts.Refusal e) {
            if (e.details() != null) ctx.out().print(e.details());
            throw new CommandException("forecast: " + e.getMessage());
        }
    }
}
