package bufq.shell.session;

import bufq.model.HloModuleBuilder;
import bufq.shell.statement.StatementKind;
import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.PeakClaim;
import bufq.model.Shape;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.TreeMap;

/**
 * A stand-in engine for shell tests: "loads" any path whose name does not contain "bad" as a small
 * module named after the file, and answers {@code values} and {@code values limit N}; anything else
 * is a query error with a caret, like the real diagnostics.
 */
public final class FakeEngine implements Engine {
    static Shape f32(long n) {
        return new Shape("f32[" + n + "]{0}", "f32", new long[]{n}, false, new int[]{0}, List.of(), 0, 0, List.of());
    }

    /** Three values in two allocations over steps 0..3; the dump claims a peak of 192 bytes at step 1. */
    public static HloModule module(String name) {
        List<HloValue> values = List.of(
                new HloValue(1, "p0", "{}", false, false, 0, 64, 0, 0, f32(16), List.of(), List.of(), new LiveRange(0, 3)),
                new HloValue(2, "add.1", "{}", false, false, 0, 128, 0, 1, f32(32), List.of(), List.of(), new LiveRange(1, 2)),
                new HloValue(3, "mul.2", "{}", false, false, 0, 128, 0, 1, f32(32), List.of(), List.of(), new LiveRange(3, 3)));
        List<BufferAllocation> allocs = List.of(
                new BufferAllocation(0, 64, 0, 0, f32(16), "{}", null, false, false, false, false, null, true, List.of(1L)),
                new BufferAllocation(1, 128, 0, -1, null, null, null, false, false, false, false, null, true, List.of(2L, 3L)));
        List<HloInstruction> ins = List.of(HloInstruction.sequenced("p0", 0), HloInstruction.sequenced("add.1", 1),
                HloInstruction.sequenced("x", 2), HloInstruction.sequenced("mul.2", 3));
        PeakClaim claim = new PeakClaim(1, List.of(new PeakClaim.Entry("p0{}", 64, 64), new PeakClaim.Entry("add.1{}", 128, 192)), true);
        HloModule.Info info = new HloModule.Info(name, name, 0, "cpu", List.of(name + "-buffer-assignment.txt"), 3, 192L, claim,
                -1, null, new TreeMap<>(), true, null);
        return new HloModuleBuilder(info).allocations(allocs).values(values).instructions(ins)
                .sequence(List.of("p0", "add.1", "x", "mul.2")).build();
    }

    /** Every path is one module named after its file; "bad" files fail when parsed, "many" names a directory of 40. */
    @Override public List<FoundModule> discover(List<Path> paths, Consumer<String> skipped) throws Failure {
        List<FoundModule> out = new ArrayList<>();
        for (Path p : paths) {
            String f = p.getFileName().toString();
            if (f.contains("missing")) throw new Failure(p + ": no such file or directory");
            int n = f.startsWith("many") ? 40 : 1;
            for (int i = 0; i < n; i++) {
                String name = n == 1 ? f.replaceAll("\\..*", "") : "m" + i;
                out.add(new FoundModule() {
                    @Override public String name() { return name; }
                    @Override public List<String> files() { return List.of(p + (n == 1 ? "" : "/" + name)); }
                    @Override public HloModule load() throws Failure {
                        parsed.incrementAndGet();
                        if (f.contains("badlast") ? name.equals("m39") : f.contains("bad"))
                            throw new Failure(p + ":1: not a buffer-assignment dump (expected 'BufferAssignment:')");
                        HloModule m = module(name);
                        if (f.contains("warn")) {
                            List<bufq.model.LoadWarning> w = new ArrayList<>();
                            for (int i = 1; i <= 12; i++) w.add(new bufq.model.LoadWarning(f, i, "malformed value line; expected '<id name @color>'"));
                            m = new HloModuleBuilder(m.info()).allocations(m.allocations()).values(m.values())
                                    .instructions(m.instructions()).sequence(m.sequence()).warnings(w).build();
                        }
                        return m;
                    }
                });
            }
        }
        return out;
    }

    /** How many modules were parsed, to check laziness. */
    final java.util.concurrent.atomic.AtomicInteger parsed = new java.util.concurrent.atomic.AtomicInteger();

    @Override public List<String> entities() { return List.of("values", "allocations", "instructions", "steps"); }

    @Override public List<Field> fields(String entity) {
        return entity.equals("values") ? List.of(new Field("id", ColumnType.INT, "value id"),
                new Field("size", ColumnType.BYTES, "assigned bytes")) : List.of();
    }

    /** Compiles nothing: the query's text is matched when it runs, and a bad one fails then. */
    @Override public Compiled compile(String query) {
        return new Compiled() {
            @Override public String text() { return query; }
            @Override public String entity() { return StatementKind.firstWord(query).toLowerCase(java.util.Locale.ROOT); }
            @Override public boolean readsUsedValues() { return false; }
            @Override public List<String> unresolved() { return List.of(); }
            @Override public String diagnostic() { return null; }
            @Override public List<Output> run(HloModule module, TilingModel tiling, List<bufq.eval.ModuleRow> modules) throws Failure {
                return query(query, module);
            }
        };
    }

    private static List<Output> query(String query, HloModule module) throws Failure {
        if (query.equals("values crash")) throw new IllegalStateException("simulated bug");
        int limit = Integer.MAX_VALUE;
        if (query.matches("values limit \\d+")) limit = Integer.parseInt(query.substring(13));
        else if (!query.equals("values")) {
            int at = query.indexOf(' ') + 1;
            throw new Failure(query + "\n" + " ".repeat(at) + "^\nexpected 'where' or end of query");
        }
        Table.Builder b = Table.builder().key("result").column("id", ColumnType.INT).column("name", ColumnType.STRING).column("size", ColumnType.BYTES);
        for (HloValue v : module.values().subList(0, Math.min(limit, module.values().size()))) b.row(v.id(), v.name(), v.size());
        return List.of(b.build());
    }
}
