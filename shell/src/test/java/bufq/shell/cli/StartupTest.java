package bufq.shell.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The batch path must start fast: it may not load JLine or GraalVM classes (under 0.7 s to
 * a prompt). Runs the real Main in a child JVM with class-load logging.
 */
class StartupTest {
    @Test
    void batchRunLoadsNeitherJLineNorGraal() throws IOException, InterruptedException {
        String log = classesLoaded(List.of(), "-c", "help", "-c", "set");
        assertTrue(log.contains("bufq.shell.cli.Bufq"), "class logging works: " + log.substring(0, Math.min(500, log.length())));
        for (String forbidden : List.of("org.jline", "org.graalvm", "com.oracle.truffle"))
            assertFalse(log.contains(" " + forbidden), forbidden + " classes were loaded on the batch path");
    }
    /**
     * Method-handle classes spun at run time are in no class-data archive and cost a
     * batch run about 2 ms each. String concatenation is compiled inline (the parent pom) and the
     * load compares no records with {@code equals}: a summary of the bundled example spun 75 of them
     * before, 8 after (the JDK's own lambdas).
     */
    @Test
    void aLoadSpinsFewMethodHandleClasses() throws IOException, InterruptedException {
        String log = classesLoaded(List.of(), "-c", "summary", CliTest.root().resolve("examples/jax-mlp").toString());
        assertTrue(log.contains("bufq.dump.text.TextReader"), "the dump was loaded: " + log.substring(0, Math.min(500, log.length())));
        assertFalse(log.contains(" java.lang.runtime.ObjectMethods "), "a record's equals, hashCode or toString ran on the load's path");
        long spun = log.lines().filter(l -> l.contains("java.lang.invoke.LambdaForm$MH/")).count();
        assertTrue(spun < 25, spun + " method-handle classes spun: string concatenation by invokedynamic?");
    }

    /**
     * Runs Main in a child JVM that logs the classes it loads; returns its output and the log. On the
     * client compiler, as the launcher runs bufq (and the suite's own JVMs run), with the suite's
     * serial collector: the optimizing compiler's threads only cost these short runs CPU.
     */
    private static String classesLoaded(List<String> jvmOptions, String... args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xlog:class+load=info"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "bufq.shell.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("BUFQ_HOME", CliTest.root().toString());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), log);
        return log;
    }

    /**
     * The run that makes a class-data archive loads what later runs need whatever it ran
     * itself: a summary and a query of the bundled example (an archive made by {@code -c summary}
     * lacked the query's classes), and for the interactive archive a session's line editor, which
     * the batch archive leaves out (its classes cost every batch run RSS).
     */
    @Test
    void theArchivingRunLoadsWhatLaterRunsNeed() throws IOException, InterruptedException {
        String plain = classesLoaded(List.of(), "-c", "set");
        for (String c : List.of(" bufq.analysis.peak.ClaimedPeak ", " bufq.eval.Query ", " bufq.dump.text.LiveRangePart "))
            assertFalse(plain.contains(c), "'set' alone reads nothing and runs no summary or query: " + c);
        String batch = classesLoaded(List.of("-D" + ArchiveNotice.PROPERTY + "=1"), "-c", "set");
        assertTrue(batch.contains(" bufq.analysis.peak.ClaimedPeak "), "summary rehearsed");
        assertTrue(batch.contains(" bufq.eval.Query "), "a query compiled");
        assertTrue(batch.contains(" bufq.dump.text.LiveRangePart "), "a four-file set read");
        assertFalse(batch.contains(" org.jline"), "no line editor in the batch archive");
        assertTrue(batch.contains(ArchiveNotice.TEXT), "the run says it writes the archive");
        assertFalse(batch.contains("(1 row)"), "the rehearsal prints nothing");
        String session = classesLoaded(List.of("-D" + ArchiveNotice.PROPERTY + "=1", "-D" + Rehearsal.PROPERTY + "=true"), "-c", "set");
        assertTrue(session.contains(" org.jline.reader.impl.LineReaderImpl "), "a session's line editor rehearsed");
        assertFalse(session.contains("bufq("), "its prompts are drawn nowhere");
    }

    /**
     * A run that compiles no query makes no query catalog (linking its fields' getters was
     * half the CPU of {@code -c set} beyond the JVM's start); one that does, makes it.
     */
    @Test
    void onlyAQueryMakesTheCatalog() throws IOException, InterruptedException {
        String example = CliTest.root().resolve("examples/jax-mlp").toString();
        assertFalse(classesLoaded(List.of(), "-c", "summary", example).contains(" bufq.eval.StandardFields "), "summary");
        assertTrue(classesLoaded(List.of(), "-c", "values show count()", example).contains(" bufq.eval.StandardFields "), "a query");
    }
}
