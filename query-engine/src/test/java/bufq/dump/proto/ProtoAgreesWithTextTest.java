package bufq.dump.proto;

import bufq.analysis.liveness.Liveness;
import bufq.dump.DumpLoader;
import bufq.dump.file.LoadException;
import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every module of the corpus's {@code jax-0.10.2-proto} read from its {@code .hlo.pb} and from
 * its text set gives the same model: allocations, values (size, offset, allocation, shape, phi,
 * positions, uses, live range), instructions (opcode, shape, op_name, operands, time), the schedule
 * and the live bytes of every step. The proto's live ranges are computed from its schedule and the
 * uses its dataflow finds (see {@code LiveRanges}), so this also holds them to the text's
 * {@code -live-range.txt}. Positions and uses are compared as sets: their order in the text is
 * XLA's in-memory order of instructions and users, which the proto does not record (see
 * {@code Dataflow#positionsAndUses}).
 */
class ProtoAgreesWithTextTest {
    /** The proto corpus, or without it the checkout's copy of two of its folders (bf16-mlp, profile). */
    static Path corpus() {
        return Corpus.requireSome("jax-0.10.2-proto");
    }

    static List<Path> hloProtos() throws IOException {
        Path c = corpus();
        try (Stream<Path> s = Files.walk(c)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".hlo.pb")).sorted().toList();
        }
    }

    static Path textOf(Path pb) {
        String n = pb.getFileName().toString();
        return pb.resolveSibling(n.substring(0, n.length() - ".hlo.pb".length()) + "-buffer-assignment.txt");
    }

    @TestFactory
    Stream<DynamicTest> protoAndTextAgree() throws IOException {
        List<Path> pbs = hloProtos();
        assertFalse(pbs.isEmpty());
        return pbs.stream().map(pb -> DynamicTest.dynamicTest(corpus().relativize(pb).toString(), () -> {
            HloModule proto = DumpLoader.load(List.of(pb)).get(0);
            HloModule text = DumpLoader.load(List.of(textOf(pb))).get(0);
            assertEquals(List.of(), differences(text, proto));
        }));
    }

    /** The profile capture's modules, each against the text dump of the same program number. */
    @TestFactory
    Stream<DynamicTest> profileModulesAgreeWithTheirText() throws IOException {
        Path profile = Corpus.require(corpus().resolve("profile/profile.xplane.pb"));
        List<HloModule> modules;
        try {
            modules = DumpLoader.load(List.of(profile));
        } catch (LoadException e) {
            throw new AssertionError(e.getMessage(), e);
        }
        assertEquals(7, modules.size(), "modules of the profile");
        List<Path> texts;
        try (Stream<Path> s = Files.list(profile.getParent())) {
            texts = s.filter(p -> p.getFileName().toString().endsWith("-buffer-assignment.txt")).sorted().toList();
        }
        assertEquals(7, texts.size());
        return modules.stream().map(m -> DynamicTest.dynamicTest(m.info().files().get(0), () -> {
            String number = String.format("module_%04d.", m.info().number());
            Path text = texts.stream().filter(t -> t.getFileName().toString().startsWith(number)).findFirst()
                    .orElseThrow(() -> new AssertionError("no text dump for program " + m.info().number()));
            assertEquals(List.of(), differences(DumpLoader.load(List.of(text)).get(0), m));
        }));
    }

    /** {@code ma-buffer-assignment.pb} (a bare BufferAssignmentProto) agrees with the text on allocations and value placement. */
    @TestFactory
    Stream<DynamicTest> bareAssignmentsAgreeOnAllocations() throws IOException {
        List<Path> pbs = hloProtos();
        return pbs.stream().filter(pb -> Files.exists(pb.resolveSibling("ma-buffer-assignment.pb")))
                .map(pb -> DynamicTest.dynamicTest(corpus().relativize(pb.getParent()).toString(), () -> {
                    HloModule bare = DumpLoader.load(List.of(pb.resolveSibling("ma-buffer-assignment.pb"))).get(0);
                    HloModule text = DumpLoader.load(List.of(textOf(pb))).get(0);
                    assertEquals(0, bare.warningCount(), () -> bare.warnings().toString());
                    assertEquals(text.totalBytes(), bare.totalBytes());
                    List<String> d = new ArrayList<>();
                    assertEquals(text.allocations().size(), bare.allocations().size());
                    for (BufferAllocation a : text.allocations()) {
                        BufferAllocation b = bare.allocation(a.index());
                        String ta = a.size() + " " + a.color() + " " + a.parameter() + " " + a.constant() + " " + a.threadLocal()
                                + " " + a.maybeLiveOut() + " " + sorted(a.valueIds());
                        String tb = b == null ? "missing" : b.size() + " " + b.color() + " " + b.parameter() + " " + b.constant()
                                + " " + b.threadLocal() + " " + b.maybeLiveOut() + " " + sorted(b.valueIds());
                        if (!ta.equals(tb)) d.add("allocation " + a.index() + ": " + ta + " vs " + tb);
                    }
                    for (HloValue v : text.values()) {
                        HloValue w = bare.value(v.id());
                        String tv = v.index() + " size=" + v.size() + " offset=" + v.offset() + " alloc=" + v.allocation();
                        String tw = w == null ? "missing" : w.index() + " size=" + w.size() + " offset=" + w.offset() + " alloc=" + w.allocation();
                        if (!tv.equals(tw)) d.add("value " + v.id() + ": " + tv + " vs " + tw);
                    }
                    assertEquals(List.of(), d);
                }));
    }

    /** What differs, one line each (empty when the two agree). */
    static List<String> differences(HloModule text, HloModule proto) {
        List<String> d = new ArrayList<>();
        if (!text.info().name().equals(proto.info().name())) d.add("name " + text.info().name() + " vs " + proto.info().name());
        if (proto.warningCount() != 0) d.add("warnings " + proto.warnings());
        if (text.allocations().size() != proto.allocations().size()) d.add("allocation count " + text.allocations().size() + " vs " + proto.allocations().size());
        for (BufferAllocation a : text.allocations()) {
            BufferAllocation b = proto.allocation(a.index());
            if (b == null) { d.add("allocation " + a.index() + " missing"); continue; }
            String ta = describe(a), pa = describe(b);
            if (!ta.equals(pa)) d.add("allocation " + a.index() + ": " + ta + " vs " + pa);
        }
        if (text.values().size() != proto.values().size()) d.add("value count " + text.values().size() + " vs " + proto.values().size());
        for (HloValue v : text.values()) {
            HloValue w = proto.value(v.id());
            if (w == null) { d.add("value " + v.id() + " missing"); continue; }
            String tv = describe(v), pv = describe(w);
            if (!tv.equals(pv)) d.add("value " + v.id() + ":\n    " + tv + "\n vs " + pv);
        }
        if (!text.sequence().equals(proto.sequence())) d.add("sequence " + text.sequence() + " vs " + proto.sequence());
        if (text.info().maxTime() != proto.info().maxTime()) d.add("max time " + text.info().maxTime() + " vs " + proto.info().maxTime());
        for (HloInstruction i : text.instructions()) {
            HloInstruction j = proto.instruction(i.name());
            if (j == null) { d.add("instruction " + i.name() + " missing"); continue; }
            if (i.time() != j.time()) d.add("instruction " + i.name() + " at " + i.time() + " vs " + j.time());
            if (i.opcode() == null) continue;   // the text knows it only from the sequence; the proto says more
            String ti = describe(i, i.sourceFile() != null), pi = describe(j, i.sourceFile() != null);
            if (!ti.equals(pi)) d.add("instruction " + i.name() + ": " + ti + " vs " + pi);
        }
        long[] tl = Liveness.of(text).liveBytesByStep(OptionalInt.empty()), pl = Liveness.of(proto).liveBytesByStep(OptionalInt.empty());
        if (!Arrays.equals(tl, pl)) d.add("live bytes by step " + Arrays.toString(tl) + " vs " + Arrays.toString(pl));
        long[] to = Liveness.of(text).occupiedBytesByStep(OptionalInt.empty()), po = Liveness.of(proto).occupiedBytesByStep(OptionalInt.empty());
        if (!Arrays.equals(to, po)) d.add("occupied bytes by step " + Arrays.toString(to) + " vs " + Arrays.toString(po));
        return d;
    }

    private static String describe(BufferAllocation a) {
        return "size=" + a.size() + " color=" + a.color() + " param=" + a.parameter() + " pshape=" + a.parameterShape()
                + " index=" + a.shapeIndex() + " output=" + a.outputShape() + " constant=" + a.constant() + " tl="
                + a.threadLocal() + " liveout=" + a.maybeLiveOut() + " kind=" + a.kind() + " values=" + sorted(a.valueIds());
    }

    private static String describe(HloValue v) {
        return v.label() + (v.phi() ? " (phi)" : "") + " size=" + v.size() + " offset=" + v.offset() + " alloc=" + v.allocation()
                + " color=" + v.color() + " shape=" + v.shape() + " range=" + v.range()
                + " positions=" + sorted(v.positions()) + " uses=" + sorted(v.uses());
    }

    private static String describe(HloInstruction i, boolean source) {
        return i.opcode() + " t=" + i.time() + " shape=" + i.shape() + " op_name=" + i.opName() + " operands=" + i.operands()
                + (source ? " source=" + i.sourceFile() + ":" + i.sourceLine() : "");
    }

    private static List<String> sorted(List<?> l) {
        return l.stream().map(String::valueOf).sorted().toList();
    }
}
