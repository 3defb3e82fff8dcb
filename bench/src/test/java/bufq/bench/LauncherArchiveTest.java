package bufq.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cold rows run {@code ./bufq} with its batch class-data archive, made by the first batch run
 * after a build: only a run that reads a dump may make it, or every later run starts from the
 * classes of {@code -c help}. The launcher is run from a copy of the checkout's layout holding the
 * packaged jar (this module's tests run after the shell is packaged in {@code mvn verify}).
 */
class LauncherArchiveTest {
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    static final Path JAR = ROOT.resolve("shell/target/bufq.jar");

    @TempDir Path tmp;

    /** A checkout of the launcher and the packaged jar only: nothing for it to rebuild. */
    private Path layout() throws IOException {
        assumeTrue(Files.isRegularFile(JAR), "needs the packaged jar (run by mvn verify, after the shell's package)");
        Path target = Files.createDirectories(tmp.resolve("shell/target"));
        Files.createSymbolicLink(target.resolve("bufq.jar"), JAR);
        Files.createSymbolicLink(target.resolve("lib"), ROOT.resolve("shell/target/lib"));
        Path launcher = tmp.resolve("bufq");
        Files.copy(ROOT.resolve("bufq"), launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        return launcher;
    }

    private static int run(List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectInput(ProcessBuilder.Redirect.PIPE);
        pb.environment().remove("BUFQ_NO_CDS");
        pb.environment().remove("BUFQ_JAVA_OPTS");
        Process p = pb.start();
        p.getOutputStream().close();   // stdin is not a terminal: a batch run
        return p.waitFor();
    }

    @Test
    void onlyARunThatReadsADumpMakesTheBatchArchive() throws Exception {
        Path launcher = layout();
        Path archive = tmp.resolve("shell/target/bufq-batch.jsa");
        List<List<String>> noDump = List.of(List.of("-c", "help"), List.of("--version"), List.of("--format", "json", "-c", "help"));
        for (List<String> args : noDump) {
            List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
            cmd.addAll(args);
            assertEquals(0, run(cmd), args.toString());
            assertFalse(Files.exists(archive), "no archive after " + args);
        }
        assertEquals(0, run(List.of(launcher.toString(), "-c", "summary", ROOT.resolve("examples/jax-mlp").toString())));
        assertTrue(Files.size(archive) > 0, "the archive of a run that read a dump");
    }
}
