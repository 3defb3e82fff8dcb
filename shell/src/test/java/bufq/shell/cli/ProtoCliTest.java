package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.testing.Corpus;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Proto dumps through the command line: a profile's modules, the modules entity, events, bad protos. */
class ProtoCliTest {
    /** {@code HloProto.hlo_module} in XLA's hlo.proto. */
    private static final int HLO_PROTO_HLO_MODULE = 1;

    private static String dump(String rel) {
        return Corpus.require("jax-0.10.2-proto/" + rel).toString();
    }

    private static CliTest.Result run(String dump, String... statements) {
        List<String> args = new ArrayList<>();
        for (String s : statements) args.addAll(List.of("-c", s));
        args.add(dump);
        return CliTest.run(DefaultEngine::new, Map.of(), args, "");
    }

    @Test
    void modulesAloneIsTheCommandAndWithClausesTheEntity() {
        String profile = dump("profile/profile.xplane.pb");
        CliTest.Result command = run(profile, "modules");
        assertEquals(0, command.code(), command.err());
        assertTrue(command.out().startsWith("#  handle"), command.out());
        CliTest.Result query = run(profile, "modules order by peak_bytes desc limit 5");
        assertEquals(0, query.code(), query.err());
        assertTrue(query.out().startsWith("handle  ") && query.out().contains("  current  kind     backend  values"), query.out());
        assertTrue(query.out().contains("\njit_f                      jit_f                 true     profile  cpu          26"), query.out());
        assertTrue(query.out().endsWith("(5 rows)\n"), query.out());
    }

    /**
     * Three jit_broadcast_in_dim got #2 and #3 with nothing tying them to module_0004 and
     * module_0006, and a capture opened on a two-value module.
     */
    @Test
    void repeatedNamesCarryTheDumpsModuleNumberAndACaptureOpensOnItsLargestPeak() {
        CliTest.Result dir = run(dump("profile"), "set maxwidth 0", "modules");
        assertEquals(0, dir.code(), dir.err());
        // text and capture of one module share its number: module_id ties each handle to its files
        assertTrue(dir.out().matches("(?s).* jit_broadcast_in_dim#2 +jit_broadcast_in_dim +false +0004 .*"), dir.out());
        assertTrue(dir.out().matches("(?s).* jit_broadcast_in_dim#3 +jit_broadcast_in_dim +false +0006 .*"), dir.out());
        CliTest.Result capture = run(dump("profile/profile.xplane.pb"), "modules");
        assertTrue(capture.out().lines().anyMatch(l -> l.matches("\\d+\\s+jit_f\\s+jit_f\\s+true\\s.*")), "jit_f holds the largest peak: " + capture.out());
        assertTrue(capture.out().contains(" jit__lambda ") && capture.out().contains("jit__lambda#0012"), capture.out());
    }

    @Test
    void eventsAndTheirTimeline() {
        String hlo = dump("bf16-mlp/module_0000.jit_f.cpu_after_optimizations.hlo.pb");
        CliTest.Result r = run(hlo, "events where kind = \"SHARE_WITH\" show seq, label, share_with, bytes", "timeline by events width 60");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("  8  convert_convert_fusion          74  8.0MiB"), r.out());
        assertTrue(r.out().contains("heap-simulator trace peak"), r.out());
    }

    @Test
    void badProtosAreOneLineLoadErrors() throws Exception {
        Path dir = Files.createTempDirectory("bufq-proto");
        byte[] good = Files.readAllBytes(Path.of(dump("bf16-mlp/module_0000.jit_f.cpu_after_optimizations.hlo.pb")));
        Files.write(dir.resolve("cut.hlo.pb"), java.util.Arrays.copyOf(good, good.length / 2));
        Files.write(dir.resolve("empty.hlo.pb"), new byte[0]);
        Files.write(dir.resolve("report.hlo.pb"), Files.readAllBytes(Path.of(dump(
                "bf16-mlp/module_0000.jit_f.cpu_after_optimizations-memory-usage-report.pb"))));
        for (String[] c : new String[][] {
                {"cut.hlo.pb", "cut.hlo.pb: byte "},
                {"empty.hlo.pb", "empty.hlo.pb: byte 0: empty file"},
                {"report.hlo.pb", "report.hlo.pb: byte "}}) {
            CliTest.Result r = run(dir.resolve(c[0]).toString(), "summary");
            assertEquals(3, r.code(), c[0] + ": " + r.err());
            assertTrue(r.err().contains(c[1]), c[0] + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
    }

    /** Like XLA's {@code before_optimizations.hlo.pb}: the module, no buffer assignment, named directly. */
    @Test
    void aModuleWithoutBufferAssignmentIsRefusedInOneLine() throws Exception {
        byte[] good = Files.readAllBytes(Path.of(dump("bf16-mlp/module_0000.jit_f.cpu_after_optimizations.hlo.pb")));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        CodedInputStream in = CodedInputStream.newInstance(good);
        int modules = 0;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (WireFormat.getTagFieldNumber(tag) == HLO_PROTO_HLO_MODULE) {
                out.writeBytes(HLO_PROTO_HLO_MODULE, in.readBytes());
                modules++;
            } else {
                in.skipField(tag);
            }
        }
        out.flush();
        assertEquals(1, modules, "the corpus proto has its module");
        Path file = Files.createTempDirectory("bufq-proto").resolve("module_0000.jit_f.cpu_before_optimizations.hlo.pb");
        Files.write(file, bytes.toByteArray());

        CliTest.Result r = run(file.toString(), "summary");
        assertEquals(3, r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(file.getFileName() + ": byte "), r.err());
        assertTrue(r.err().contains("no buffer_assignment"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }
}
