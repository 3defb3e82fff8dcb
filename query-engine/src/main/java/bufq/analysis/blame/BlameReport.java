package bufq.analysis.blame;

import bufq.analysis.peak.Peak;
import bufq.analysis.advise.ShardingAudit;
import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.TilingModel;
import bufq.units.Units;
import bufq.analysis.liveness.OccupiedShares;
import bufq.analysis.category.Categories;
import bufq.analysis.category.CategoryRules;
import bufq.analysis.liveness.Steps;
import bufq.analysis.liveness.LiveValues;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.analysis.liveness.Liveness;
import bufq.table.ColumnType;
import bufq.table.NaturalOrder;
import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code blame}: the bytes occupied at the peak attributed to op_name prefixes ({@code jit(step)},
 * {@code jit(step)/jvp()}, ...), source lines or opcodes, each byte once ({@link OccupiedShares}); then
 * the stack-trace tree.
 */
final class BlameReport {
    private BlameReport() {}

    private record Key(int level, String name) {}

    /** The one bucket of values without an op_name (single copy.NNNNN values would each get a row). */
    static final String NO_OP_NAME = "(no op_name)";

    /** @param maxLines node lines of the stack tree shown (the shell's maxrows; 0 = all) */
    static List<Output> run(HloModule m, BlameBy by, int depth, int maxLines) { return run(m, by, depth, maxLines, -1); }

    /** As above at step {@code step} (-1: the peak); the stack-trace tree is the peak's, so only there. */
    static List<Output> run(HloModule m, BlameBy by, int depth, int maxLines, int step) {
        Liveness l = Liveness.of(m);
        if (l.peakTime() < 0) return List.of(new TextBlock(Peak.noRanges(m)));
        int t = step < 0 ? l.peakTime() : step;
        if (step >= 0 && (by == BlameBy.CATEGORY || by == BlameBy.PATH)) {
            String at = String.valueOf(step);
            return by == BlameBy.CATEGORY ? Categories.blame(m, CategoryRules.NONE, t, at) : Categories.paths(m, CategoryRules.NONE, t, at, depth);
        }
        if (by == BlameBy.SHARDING) return sharding(m);
        if (by == BlameBy.CATEGORY) return Categories.blame(m, CategoryRules.NONE, t, "peak");
        if (by == BlameBy.PATH) return Categories.paths(m, CategoryRules.NONE, t, "peak", depth);
        // Each byte once: a value's share of what its allocation holds then, not its logical size,
        // which counts twice the bytes of a hand-over or of a buffer a loop aliases.
        List<HloValue> live = LiveValues.inDevice(m, t);
        long[] shares = OccupiedShares.of(live);
        long peak = 0;
        Map<Key, long[]> acc = new HashMap<>();
        for (int i = 0; i < live.size(); i++) {
            HloValue v = live.get(i);
            HloInstruction ins = m.instruction(v.name());
            peak += shares[i];
            for (Key k : keys(by, ins, depth)) {
                long[] a = acc.computeIfAbsent(k, x -> new long[2]);
                a[0] += shares[i];
                a[1]++;
            }
        }
        List<Map.Entry<Key, long[]>> rows = new ArrayList<>(acc.entrySet());
        rows.sort(Comparator.comparingLong((Map.Entry<Key, long[]> e) -> e.getValue()[0]).reversed()
                .thenComparingInt(e -> e.getKey().level()).thenComparing(e -> e.getKey().name(), NaturalOrder.INSTANCE));
        String what = switch (by) {
            case OP_NAME -> "op_name";
            case SOURCE -> "source";
            case OPCODE -> "opcode";
            case STACK -> "stack";
            case CATEGORY, PATH, SHARDING -> throw new IllegalStateException("answered above");
        };
        Table.Builder b = Table.builder().key(t == l.peakTime() ? "bytes_occupied_at_peak_step" : "bytes_occupied_at_step")
                .title("bytes occupied at " + (t == l.peakTime() ? "peak step " : "step ") + t + " (" + Steps.instructionAt(m, t) + ", " + Units.human(peak)
                        + ") by " + what);
        boolean levels = by == BlameBy.OP_NAME || by == BlameBy.STACK;
        if (levels) b.column("level", ColumnType.INT);
        b.column(what, ColumnType.STRING).column("bytes", ColumnType.BYTES).column("share", ColumnType.PERCENT)
                .column("values", ColumnType.INT);
        for (Map.Entry<Key, long[]> e : rows) {
            List<Object> row = new ArrayList<>();
            if (levels) row.add((long) e.getKey().level());
            row.add(e.getKey().name());
            row.add(e.getValue()[0]);
            row.add(Units.share(e.getValue()[0], peak));
            row.add(e.getValue()[1]);
            b.row(row);
        }
        if (by == BlameBy.STACK) {
            b.note("each value counts once at every depth of its instruction's Python stack, outermost frame first"
                    + (depth > 0 ? ", down to depth " + depth : "") + "; a row names the frame at its depth (> separates the callers "
                    + "above it); the level-1 rows add up to the peak; without stacks (text dumps) the source line stands for one");
        }
        if (by == BlameBy.OP_NAME) {
            b.note("each value counts once at every prefix level of its op_name"
                    + (depth > 0 ? " up to level " + depth : "") + "; the level-1 rows add up to the "
                    + (t == l.peakTime() ? "peak" : "step's occupied bytes"));
        }
        if (t != l.peakTime()) return List.of(b.build());
        String tree = StackTree.display(m, maxLines);
        String source = StackTree.usesDumpTree(m) ? "the dump's own tree"
                : "rebuilt from the model at peak step " + t + (m.info().stackTrace() != null
                ? " (the dump's own tree is for its label, step " + l.claimedPeakTime() + ")" : " (the dump printed none)");
        // XLA's tree weighs logical sizes; say so where that is not the table's measure (TPU padding,
        // bytes two values share at a hand-over).
        long treeBytes = StackTree.usesDumpTree(m) ? m.info().stackTraceBytes() : l.liveBytesAllSpaces(t);
        if (treeBytes >= 0 && treeBytes != peak) {
            source += "; like XLA's it sums logical sizes, " + Units.grouped(treeBytes, ' ') + " bytes, where the table counts the "
                    + Units.grouped(peak, ' ') + " bytes occupied";
        }
        return List.of(b.build(), new TextBlock("stack trace breakdown, " + source + ":\n" + tree));
    }

    /** Values without an op_name share one bucket, so a module's thousands of copies do not each get a row. */
    static List<Key> keys(BlameBy by, HloInstruction ins, int depth) {
        return switch (by) {
            case SOURCE -> List.of(new Key(1, orElse((ins == null ? null : ins.source()), "(no source)")));
            case OPCODE -> List.of(new Key(1, ins == null || ins.opcode() == null ? "(unknown)" : ins.opcode()));
            case STACK -> {
                List<String> stack = ins == null ? List.of() : ins.stack();
                if (stack.isEmpty()) yield List.of(new Key(1, orElse((ins == null ? null : ins.source()), "(no source)")));
                List<Key> out = new ArrayList<>();
                int n = depth > 0 ? Math.min(depth, stack.size()) : stack.size();
                StringBuilder path = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    if (i > 0) path.append(" > ");
                    path.append(stack.get(i));
                    out.add(new Key(i + 1, path.toString()));
                }
                yield out;
            }
            case CATEGORY, PATH -> throw new IllegalArgumentException("blame by " + by + " is bufq.analysis.category's");
            case SHARDING -> throw new IllegalArgumentException("blame by sharding is bufq.analysis.advise.ShardingAudit's");
            case OP_NAME -> {
                String op = ins == null ? null : ins.opName();
                if (op == null || op.isEmpty()) yield List.of(new Key(1, NO_OP_NAME));
                List<String> parts = splitOpName(op);
                List<Key> out = new ArrayList<>();
                int n = depth > 0 ? Math.min(depth, parts.size()) : parts.size();
                StringBuilder prefix = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    if (i > 0) prefix.append('/');
                    prefix.append(parts.get(i));
                    out.add(new Key(i + 1, prefix.toString()));
                }
                yield out;
            }
        };
    }

    /** Splits at {@code /} outside parentheses and brackets: {@code jit(f)/jvp(a/b)/div} has three parts. */
    static List<String> splitOpName(String op) { return Categories.splitOpName(op); }

    private static String orElse(String s, String d) { return s == null ? d : s; }

    /** The replication audit under the standard fields and the TPU tiling rule (the shell passes its own). */
    private static List<Output> sharding(HloModule m) {
        try {
            return ShardingAudit.report(m, Catalog.standard(), TilingModel.TPU, n -> null);
        } catch (QueryException e) {
            throw new IllegalStateException("the sharding audit's own edit failed: " + e.getMessage(), e);
        }
    }
}
