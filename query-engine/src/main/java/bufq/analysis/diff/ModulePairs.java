package bufq.analysis.diff;

import bufq.model.HloModule;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pairs the modules of two dumps (two dump directories, say) for {@link ModuleDiff}: module numbers
 * change between runs, program names do not. Equal names pair in the order given (module number
 * order, as the loader returns them); a single module on each side pairs whatever its name.
 */
public final class ModulePairs {
    private ModulePairs() {}

    public record Pair(HloModule before, HloModule after) {}

    /** @param onlyBefore modules with no partner after; {@code onlyAfter} the reverse */
    public record Result(List<Pair> pairs, List<HloModule> onlyBefore, List<HloModule> onlyAfter) {
        public Result {
            pairs = List.copyOf(pairs);
            onlyBefore = List.copyOf(onlyBefore);
            onlyAfter = List.copyOf(onlyAfter);
        }

        /** Modules without a partner, as a table ({@code side, module, files}); empty when all paired. */
        public Table unpairedTable() {
            Table.Builder t = Table.builder().key("modules_only_on_one_side").title("modules only on one side")
                    .column("side", ColumnType.STRING).column("module", ColumnType.STRING)
                    .column("number", ColumnType.INT);
            for (HloModule m : onlyBefore) t.row("only before", m.info().name(), (long) m.info().number());
            for (HloModule m : onlyAfter) t.row("only after", m.info().name(), (long) m.info().number());
            return t.build();
        }
    }

    public static Result pair(List<HloModule> before, List<HloModule> after) {
        if (before.size() == 1 && after.size() == 1) return new Result(List.of(new Pair(before.get(0), after.get(0))),
                List.of(), List.of());
        Map<String, Deque<HloModule>> waiting = new LinkedHashMap<>();
        for (HloModule m : after) waiting.computeIfAbsent(m.info().name(), k -> new ArrayDeque<>()).add(m);
        List<Pair> pairs = new ArrayList<>();
        List<HloModule> onlyBefore = new ArrayList<>();
        for (HloModule m : before) {
            Deque<HloModule> q = waiting.get(m.info().name());
            if (q == null || q.isEmpty()) onlyBefore.add(m);
            else pairs.add(new Pair(m, q.poll()));
        }
        List<HloModule> onlyAfter = new ArrayList<>();
        for (HloModule m : after) {
            Deque<HloModule> q = waiting.get(m.info().name());
            if (q.contains(m)) onlyAfter.add(m);
        }
        return new Result(pairs, onlyBefore, onlyAfter);
    }
}
