package bufq.shell.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.io.RandomAccessFile;
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
        Process p = dryRun(new ProcessBuilder(cmd));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the dry run ends");
        assertEquals(0, p.exitValue(), out);
        return out.lines().toList();
    }

    /** Starts {@code pb} as a dry run of the launcher (it prints the java command), free of the caller's bufq settings. */
    private static Process dryRun(ProcessBuilder pb) throws IOException {
        pb.redirectErrorStream(true);
        pb.environment().put("BUFQ_DRY_RUN", "1");
        pb.environment().remove("BUFQ_NO_CDS");
        pb.environment().remove("BUFQ_JAVA_OPTS");
        pb.environment().remove("BUFQ_CLASSPATH");
        Process p = pb.start();
        p.getOutputStream().close();
        return p;
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
            assertTrue(cmd.stream().anyMatch(a -> a.contains("shell/target/bufq-batch.jsa")), cmd.toString());
            assertFalse(cmd.contains("-Dbufq.rehearse=true"), "a batch archive holds no line editor: " + cmd);
            // the run that writes the archive says so as it ends, the others do not
            assertTrue(cmd.contains("-D" + ArchiveNotice.PROPERTY + "=1"), cmd.toString());
        }
        assertFalse(command(launcher, "-c", "help").contains("-D" + ArchiveNotice.PROPERTY + "=1"));
    }

    @Test
    void theArchivingRunSaysWhyItsExitTakesSeconds() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ArchiveNotice.print(null, err);
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
        ArchiveNotice.print("1", err);
        String line = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(1, line.lines().count(), line);
        assertTrue(line.startsWith("bufq: saving a startup archive"), line);
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
        assertTrue(cmd.contains("-XX:Tier3BackEdgeThreshold=6000"), "and compile a loop after 6,000 turns: " + cmd);
        assertEquals(List.of("-c", "summary", "dump.txt"), cmd.subList(cmd.size() - 3, cmd.size()), "the arguments last, as given");
    }
    /** MemTotal of /proc/meminfo in kB, 0 where there is none. */
    private static long memKb() throws Exception {
        Path info = Path.of("/proc/meminfo");
        if (!Files.exists(info)) return 0;
        for (String l : Files.readAllLines(info)) {
            if (l.startsWith("MemTotal:")) return Long.parseLong(l.replaceAll("[^0-9]", ""));
        }
        return 0;
    }

    @Test
    void batchRunsSizeTheirYoungGenerationByTheDumpsTheyName() throws Exception {
        assumeTrue(memKb() >= 12_000_000L, "the batch sizing applies where 12 GB of memory allow a 3 GB heap");
        Path launcher = launcher();
        Path small = Files.writeString(tmp.resolve("small-buffer-assignment.txt"), "BufferAssignment:\n");
        List<String> cmd = command(launcher, "-c", "summary", small.toString());
        assertTrue(cmd.contains("-Xmn256m"), "a small dump gets the smallest young generation: " + cmd);
        assertFalse(cmd.contains("-Xms3g"), cmd.toString());
        Path dir = Files.createDirectories(tmp.resolve("dir"));
        for (String n : List.of("a", "b")) {
            try (RandomAccessFile f = new RandomAccessFile(dir.resolve(n + "-buffer-assignment.txt").toFile(), "rw")) {
                f.setLength(20L << 20);   // sparse: its size is what counts, not its blocks
            }
        }
        cmd = command(launcher, "--format", "csv", "-c", "summary", dir.toString());
        assertTrue(cmd.contains("-Xmn480m"), "twelve times the 40 MiB of a directory's files: " + cmd);
        try (RandomAccessFile f = new RandomAccessFile(tmp.resolve("big.txt").toFile(), "rw")) {
            f.setLength(200L << 20);
        }
        cmd = command(launcher, "-c", "summary", tmp.resolve("big.txt").toString());
        assertTrue(cmd.contains("-Xmn2g") && cmd.contains("-Xms3g"), "a big dump gets the 2 GB young generation: " + cmd);
    }
    /**
     * The command an interactive session of {@code args} would start first: {@code script} gives the
     * launcher a terminal.
     */
    private List<String> interactiveCommand(Path launcher, String... args) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "script(1) gives the launcher a terminal");
        Process p = dryRun(new ProcessBuilder("/usr/bin/script", "-qec", "bash " + launcher + " " + String.join(" ", args), "/dev/null"));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the dry run ends");
        List<String> cmd = out.replace("\r", "").lines().toList();
        assertTrue(cmd.contains("-jar"), "the dry run printed a java command: " + cmd);
        return cmd;
    }

    /**
     * An interactive session starts from the class-data archive too, which holds the line
     * editor's classes (the bundled example's prompt after 0.8 s of CPU instead of 1.25 s). It never
     * runs in the JVM's dump mode itself (half a second more before its prompt, and no archive when
     * its terminal closes): without an archive, a short batch run of the bundled example makes one first.
     */
    @Test
    void interactiveSessionsStartFromTheArchiveAndNeverMakeItThemselves() throws Exception {
        Path launcher = launcher();
        Path example = tmp.resolve("examples/seeds/004_0cb419b3147a3cb6.txt");
        Files.createDirectories(example.getParent());
        Files.writeString(example, "BufferAssignment:\n");
        List<String> first = interactiveCommand(launcher, "dump.txt");
        assertTrue(makesArchive(first), "no archive yet: one is made first: " + first);
        assertEquals(List.of("-c", "summary", example.toString()), first.subList(first.size() - 3, first.size()),
                "by a batch run of the bundled example, not by the session: " + first);
        assertTrue(first.contains("-D" + ArchiveNotice.PROPERTY + "=1"), "which says it writes the archive");
        assertTrue(first.contains("-D" + Rehearsal.PROPERTY + "=true"), "and rehearses a session");
        assertTrue(first.stream().anyMatch(a -> a.matches(".*shell/target/bufq\\.jsa\\.\\d+\\.tmp")), first.toString());

        Path archive = tmp.resolve("shell/target/bufq.jsa");
        Files.writeString(archive, "an archive");
        Files.setLastModifiedTime(archive, FileTime.fromMillis(System.currentTimeMillis()));
        List<String> session = interactiveCommand(launcher, "dump.txt");
        assertTrue(session.contains("-XX:TieredStopAtLevel=1"), "a session compiles with C1 only too: " + session);
        assertFalse(makesArchive(session), session.toString());
        assertTrue(session.contains("-XX:SharedArchiveFile=" + archive), session.toString());
        assertEquals("dump.txt", session.get(session.size() - 1));
    }
}
