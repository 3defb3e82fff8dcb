package bufq.dump;

import bufq.analysis.liveness.Liveness;
import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.LoadWarning;
import bufq.model.HloModule;
import bufq.model.PeakClaim;
import bufq.model.Shape;
import bufq.model.StackTraceNode;
import bufq.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;


/**
 * Golden files: every field the reader fills, rendered as text, for one fixture per era. Run with
 * {@code -Dbufq.updateGoldens=true} to rewrite them after an intended change (and read the diff).
 */
class GoldenTest {
    @ParameterizedTest
    @ValueSource(strings = {"tf-era", "old2024", "late2025", "jax010-mlp", "analysis-off", "tpu", "report-only"})
    void readerOutputMatchesGolden(String fixture) throws Exception {
        List<HloModule> ms = DumpLoader.load(List.of(Fixtures.path(fixture)));
        StringBuilder b = new StringBuilder();
        for (HloModule m : ms) render(m, Fixtures.path("").toString() + "/", b);
        Golden.check(Golden.file("query-engine", fixture + ".txt"), b.toString());
    }

    static void render(HloModule m, String strip, StringBuilder b) {
        HloModule.Info i = m.info();
        b.append("module ").append(i.handle()).append(" name=").append(i.name()).append(" number=").append(i.number())
                .append(" backend=").append(i.backend()).append('\n');
        for (String f : i.files()) b.append("  file ").append(f.replace(strip, "")).append('\n');
        b.append("  maxTime=").append(i.maxTime()).append(" claimedTotal=").append(i.claimedTotalBytes())
                .append(" total=").append(m.totalBytes()).append(" details=").append(i.hasValueDetails())
                .append(" truncatedAt=").append(i.truncatedAt()).append(" colorTotals=").append(i.colorTotals())
                .append(" warnings=").append(m.warningCount()).append('\n');
        for (LoadWarning w : m.warnings()) b.append("  warning ").append(w).append('\n');
        for (BufferAllocation a : m.allocations()) {
            b.append("allocation ").append(a.index()).append(" size=").append(a.size()).append(a.sizeExact() ? "" : "~")
                    .append(" color=").append(a.color()).append(" kind=").append(a.kind());
            if (a.isParameter()) b.append(" parameter=").append(a.parameter()).append(" shape=").append(a.parameterShape())
                    .append(" at ").append(a.shapeIndex());
            if (a.isOutput()) b.append(" output=").append(a.outputShape());
            if (a.pointer() != null) b.append(" pointer=").append(a.pointer());
            b.append(flag(a.constant(), "constant")).append(flag(a.threadLocal(), "thread-local"))
                    .append(flag(a.maybeLiveOut(), "maybe-live-out")).append(flag(a.preallocatedTemp(), "preallocated-temp"))
                    .append(" values=").append(a.valueIds()).append('\n');
        }
        for (HloValue v : m.values()) {
            b.append("value ").append(v.id()).append(' ').append(v.label()).append(" key=").append(v.key())
                    .append(v.phi() ? " phi" : "").append(" @").append(v.color()).append(" size=").append(v.size())
                    .append(" offset=").append(v.offset()).append(" alloc=").append(v.allocation())
                    .append(" range=").append(v.range()).append(" logical=").append(v.logicalSize())
                    .append(" padded=").append(v.paddedSize()).append('\n');
            b.append("  shape ").append(shape(v.shape())).append('\n');
            if (!v.positions().isEmpty()) b.append("  positions ").append(v.positions()).append('\n');
            if (!v.uses().isEmpty()) b.append("  uses ").append(v.uses()).append('\n');
        }
        for (HloInstruction ins : m.instructions()) {
            b.append("instruction ").append(ins.name()).append(" t=").append(ins.time()).append(" op=").append(ins.opcode())
                    .append(" shape=").append(ins.shape()).append(" operands=").append(ins.operands())
                    .append(" op_name=").append(ins.opName()).append(" file=").append(ins.sourceFile())
                    .append(" line=").append(ins.sourceLine()).append('\n');
            if (!ins.attributes().isEmpty()) b.append("  attributes ").append(ins.attributes()).append('\n');
        }
        PeakClaim p = i.peakClaim();
        if (p != null) {
            b.append("peak t=").append(p.time()).append(" cumulative=").append(p.cumulative())
                    .append(" claimed=").append(p.claimedBytes()).append(" recomputed=").append(Liveness.of(m).liveBytesAllSpaces(p.time())).append('\n');
            for (PeakClaim.Entry e : p.entries()) b.append("  ").append(e).append('\n');
        }
        if (i.stackTrace() != null) {
            b.append("stack ").append(i.stackTraceBytes()).append('\n');
            tree(i.stackTrace(), 1, b);
        }
    }

    static String shape(Shape s) {
        if (s.isTuple()) {
            StringBuilder t = new StringBuilder("tuple(");
            for (int k = 0; k < s.tupleElements().size(); k++) t.append(k == 0 ? "" : ", ").append(shape(s.tupleElements().get(k)));
            return t.append(')').toString();
        }
        return s.describe() + (s.dynamic() ? " dynamic" : "");
    }

    static void tree(StackTraceNode n, int depth, StringBuilder b) {
        b.append("  ".repeat(depth)).append(n.label()).append(" ").append(n.percent()).append("% total=").append(n.total())
                .append(" current=").append(n.current()).append(" remaining=").append(n.remaining()).append('\n');
        for (StackTraceNode c : n.children()) tree(c, depth + 1, b);
    }

    private static String flag(boolean on, String name) { return on ? " " + name : ""; }

    @SuppressWarnings("unused")
    private static String arr(long[] a) { return Arrays.toString(a); }
}
