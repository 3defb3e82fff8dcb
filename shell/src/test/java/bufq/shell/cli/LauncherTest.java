package bufq.shell.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java command lines ./bufq starts, read with {@code BUFQ_DRY_RUN=1} from a copy of the
 * launcher (its own class-data archives, none to start with): the flags of batch runs, and that
 * only a run that reads a dump makes an archive. One made by {@code -c help} would hold half a
 * load's classes, and every later run would start from it.
 */
class LauncherTest {
    @TempDir Path tmp;

    private Path launcher() throws Exception {
        Files.createDirectories(tmp.resolve("shell/target"));
        Path launcher = tmp.resolve("bufq");
        Files.copy(CliTest.root().resolve("bufq"), launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        return launcher;
    }

    /** The command a batch run of {@code args} would start (stdin not a terminal). */
    private static List<String> command(Path launcher, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("BUFQ_DRY_RUN", "1");
        pb.environment().remove("BUFQ_NO_CDS");
        pb.environment().remove("BUFQ_JAVA_OPTS");
        pb.environment().remove("BUFQ_CLASSPATH");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the dry run ends");
        assertEquals(0, p.exitValue(), out);
        return out.lines().toList();
    }

    private static boolean makesArchive(List<String> cmd) {
        return cmd.stream().anyMatch(a -> a.startsWith("-XX:ArchiveClassesAtExit="));
    }

    /**
     * The launcher classifies arguments without starting a JVM, so it keeps its own copy of two of
     * Args' option lists: the options that make a batch run, and those that take a value (so their
     * value is not taken for a dump path). They stay the same lists.
     */
    @Test
    void theLauncherKnowsArgsOptionLists() throws Exception {
        List<String> script = Files.readAllLines(CliTest.root().resolve("bufq"));
        assertEquals(new java.util.TreeSet<>(Args.BATCH_OPTIONS), patterns(script, "interactive=0 ;; esac"));
        assertEquals(new java.util.TreeSet<>(Args.VALUE_OPTIONS), patterns(script, "after_option=1 ;;"));
    }

    /** The options of the one {@code case} line of {@code script} that ends in {@code action}, '*' dropped. */
    private static java.util.TreeSet<String> patterns(List<String> script, String action) {
        List<String> lines = script.stream().filter(l -> l.contains(") " + action)).toList();
        assertEquals(1, lines.size(), "one case line ending in " + action + ": " + lines);
        String l = lines.get(0).strip();
        String alternatives = l.substring(l.startsWith("case") ? l.indexOf(" in ") + 4 : 0, l.indexOf(") " + action));
        java.util.TreeSet<String> out = new java.util.TreeSet<>();
        for (String p : alternatives.split("\\|")) out.add(p.strip().replace("*", ""));
        return out;
    }

    @Test
    void onlyARunThatNamesADumpMakesTheBatchArchive() throws Exception {
        Path launcher = launcher();
        for (String[] args : new String[][] {{"-c", "help"}, {"--version"}, {"--format", "json", "-c", "help"}, {"-h"}}) {
            assertFalse(makesArchive(command(launcher, args)), String.join(" ", args));
        }
        for (String[] args : new String[][] {{"-c", "summary", "dump.txt"}, {"dump.txt"}, {"--format", "csv", "-c", "peak", "--", "-dump"}, {"-c", "summary", "-"}}) {
            List<String> cmd = command(launcher, args);
            assertTrue(makesArchive(cmd), String.join(" ", args) + ": " + cmd);
            assertTrue(cmd.stream().anyMatch(a -> a.contains("bufq-batch.jsa")), cmd.toString());
        }
    }

    @Test
    void batchRunsUseTheArchiveOnceMadeAndTheQuickCompiler() throws Exception {
        Path launcher = launcher();
        Path archive = tmp.resolve("shell/target/bufq-batch.jsa");
        Files.writeString(archive, "an archive");   // newer than the jar, which is not there: fresh
        Files.setLastModifiedTime(archive, FileTime.fromMillis(System.currentTimeMillis()));
        List<String> cmd = command(launcher, "-c", "summary", "dump.txt");
        assertFalse(makesArchive(cmd), cmd.toString());
        assertTrue(cmd.contains("-XX:SharedArchiveFile=" + archive), cmd.toString());
        assertTrue(cmd.contains("-XX:TieredStopAtLevel=1"), "batch runs compile with C1 only: " + cmd);
        assertEquals(List.of("-c", "summary", "dump.txt"), cmd.subList(cmd.size() - 3, cmd.size()), "the arguments last, as given");
    }
}
