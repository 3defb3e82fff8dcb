package bufq.shell.cli;

import bufq.shell.session.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One unreadable module in a dump directory costs only that module: the others load,
 * the skipped one is a warning line naming its file and why, and the run succeeds; it fails
 * (exit 3) only when nothing loads.
 */
class DirectoryWithBadFilesTest {
    @TempDir Path dir;

    private static final Path EXAMPLE = Path.of(System.getProperty("bufq.root", "..")).resolve("examples/jax-mlp");

    private Path withGoodModule() throws Exception {
        try (Stream<Path> s = Files.list(EXAMPLE)) {
            for (Path f : s.toList()) Files.copy(f, dir.resolve(f.getFileName()));
        }
        return dir;
    }

    /** A proto cut inside its first field: refused with its byte offset. */
    private Path badProto() throws Exception {
        return Files.write(dir.resolve("module_0001.jit_g.cpu_after_optimizations.hlo.pb"), new byte[] {0x0a, 0x7f, 0x0a, 0x01});
    }

    @Test
    void theOtherModulesLoadAndTheSkippedOneIsNamed() throws Exception {
        withGoodModule();
        Path bad = badProto();
        HostileFilesTest.Result r = HostileFilesTest.run("--no-init", "-c", "modules", dir.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.err().contains("bufq: warning: " + bad + ": byte "), r.err());
        assertTrue(r.err().contains("; module skipped"), r.err());
        assertTrue(r.out().contains("jit_f"), r.out());
        assertTrue(!r.out().contains("jit_g"), r.out());
    }

    @Test
    void loadInTheShellKeepsTheOthersToo() throws Exception {
        withGoodModule();
        Path bad = badProto();
        HostileFilesTest.Result r = HostileFilesTest.run("--no-init", "-c", "load " + dir, "-c", "modules");
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.err().contains(bad + ": byte "), r.err());
        assertTrue(r.out().contains("jit_f"), r.out());
    }

    @Test
    void aDirectoryWhereNothingLoadsFails() throws Exception {
        Path bad = badProto();
        HostileFilesTest.Result r = HostileFilesTest.run("--no-init", "-c", "modules", dir.toString());
        assertEquals(ExitCode.LOAD, r.code(), r.err());
        assertTrue(r.err().contains(bad + ": byte "), r.err());
    }
}
