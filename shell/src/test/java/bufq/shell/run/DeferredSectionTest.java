package bufq.shell.run;

import bufq.model.HloModuleBuilder;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.DeferredReads;
import bufq.shell.session.Engine;
import bufq.shell.session.Env;
import bufq.shell.session.ModuleSet;
import bufq.shell.session.Status;
import bufq.shell.run.Shell;
import bufq.shell.run.StatementRunner;
import bufq.analysis.liveness.Liveness;

import bufq.model.HloModule;
import bufq.shell.cli.Bufq;
import bufq.testing.Corpus;
import bufq.model.LoadWarning;
import bufq.model.PartReadException;
import bufq.model.UsedValues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Statements that need only the allocation section and the live ranges leave a module's Used
 * values section unread, on a module whose dump labels another step than bufq's peak (so the note
 * explaining the label, which once sized values by their instructions, runs too); those that need
 * it declare it, so the shell reads it before running them.
 */
class DeferredSectionTest {
    record Session(Shell shell, ByteArrayOutputStream out, ByteArrayOutputStream err) {}

    static Session session(Path dump) throws Engine.Failure {
        Session s = session();
        s.shell().modules().load(List.of(dump));
        return s;
    }

    /** A shell holding {@code m}, its output and errors captured. */
    static Session session(HloModule m) {
        Session s = session();
        s.shell().modules().addModules(List.of(m));
        return s;
    }

    private static Session session() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Shell s = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), false));
        return new Session(s, out, err);
    }

    private static final List<String> CHEAP = List.of(
            "summary", "timeline", "steps", "fragmentation", "map 0", "padding", "check",
            "values where live at peak show count(), sum(size)",
            "values show id, name, size, offset, allocation, shape, color, start, end order by size desc limit 5",
            "allocations order by size desc limit 3", "whatif drop where size > 1MiB",
            "whatif scale where shape ~ \"f32\" by 0.5");

    @Test
    void statementsOnBytesLeaveTheValuesSectionUnread() throws Exception {
        Session s = session(Corpus.require("jax-0.10.2/transformer-12layer"));
        HloModule m = s.shell().current();
        assertNotEquals(Liveness.of(m).peakTime(), Liveness.of(m).claimedPeakTime(), "the dump's label is not the peak");
        assertFalse(m.usedValues().isRead());
        for (String statement : CHEAP) {
            StatementRunner.Statement compiled = s.shell().compile(statement);
            assertFalse(compiled.readsUsedValues(), statement + " declares no read");
            assertEquals(Status.OK, s.shell().execute(compiled), statement + ": " + s.err());
            assertFalse(m.usedValues().isRead(), statement + " read the Used values section");
        }
        assertTrue(s.out().toString(StandardCharsets.UTF_8).contains("XLA's ComputePeakMemoryMoment"), "summary's note ran");
    }

    /** Each statement that reads the section says so, so the shell reads it up front (with progress and Ctrl-C). */
    @Test
    void statementsThatReadTheSectionDeclareIt(@TempDir Path dir) throws Exception {
        for (String statement : List.of("blame", "peak", "peaks", "advise", "why 570", "whatif remat where live at peak and size > 1MiB", "whatif drop where op_name ~ \"dot\"",
                "values where live at peak show op_name limit 1", "export pprof " + dir.resolve("p.pb.gz"))) {
            Session s = session(Corpus.require("jax-0.10.2/transformer-2layer"));
            HloModule m = s.shell().current();
            StatementRunner.Statement compiled = s.shell().compile(statement);
            assertTrue(compiled.readsUsedValues(), statement);
            assertEquals(Status.OK, s.shell().execute(compiled), statement + ": " + s.err());
            assertTrue(m.usedValues().isRead(), statement);
        }
    }

    /**
     * What {@code fields} says is what happens: a field it marks as reading the values file reads
     * the section when a query shows it, and every other field leaves the section unread.
     */
    @Test
    void fieldsSaysWhichFieldsReadTheValuesFile() throws Exception {
        Path dump = Corpus.require("jax-0.10.2/transformer-2layer");
        Session listing = session(dump);
        List<Engine.Field> fields = listing.shell().engine().fields("values");
        assertTrue(fields.stream().anyMatch(Engine.Field::needsValues), "some field needs the values file");
        assertTrue(fields.stream().anyMatch(f -> !f.needsValues()), "some field does not");
        assertEquals(Status.OK, listing.shell().execute("fields values"));
        String table = listing.out().toString(StandardCharsets.UTF_8);
        assertTrue(table.lines().anyMatch(l -> l.matches("op_name +string +values +.*")), table);
        assertTrue(table.lines().anyMatch(l -> l.matches("size +bytes {2,}size=.*")), table);
        for (Engine.Field f : fields) {
            Session s = session(dump);
            HloModule m = s.shell().current();
            String query = "values show " + f.name() + " limit 1";
            assertEquals(Status.OK, s.shell().execute(query), query + ": " + s.err());
            assertEquals(f.needsValues(), m.usedValues().isRead(), query);
        }
    }

    /** diff reads the parts of its two sides, not those of the current module. */
    @Test
    void diffReadsItsSidesNotTheCurrentModule() throws Exception {
        Session s = session(Corpus.require("jax-0.10.2/pairs"));
        List<ModuleSet.Entry> all = s.shell().modules().set().entries();
        assertEquals(3, all.size());
        HloModule current = s.shell().current();
        assertEquals(Status.OK, s.shell().execute("diff 2 3"), s.err().toString(StandardCharsets.UTF_8));
        assertTrue(s.shell().modules().module(all.get(1)).usedValues().isRead());
        assertTrue(s.shell().modules().module(all.get(2)).usedValues().isRead());
        assertFalse(current.usedValues().isRead(), "the current module, not a side, stays unread");
    }

    /** A values file the load could not read: blame says so, naming the file and the reason, and fails. */
    @Test
    void blameWithoutTheValuesFileSaysWhy(@TempDir Path dir) throws Exception {
        Path values = copy(dir);
        byte[] bytes = Files.readAllBytes(values);
        bytes[100] = 0;   // a NUL byte: the load skips the file as binary
        Files.write(values, bytes);
        Session s = session(dir);
        assertEquals(Status.ERROR, s.shell().execute("blame"));
        String err = s.err().toString(StandardCharsets.UTF_8);
        assertTrue(err.contains("error: no op_name, source line or opcode to blame: " + values + ":"), err);
        assertTrue(err.contains("could not be read at load: binary file"), err);
        assertFalse(s.out().toString(StandardCharsets.UTF_8).contains("(no op_name)"), "no table of one bucket");
    }

    /**
     * Warnings of a section read after the load are printed when it is read, once; summary counts
     * those of the load only, so it prints the same before and after.
     */
    @Test
    void warningsOfADeferredReadArePrintedOnce(@TempDir Path dir) throws Exception {
        Path values = copy(dir);
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(values));
        lines.set(8, "garbage here");
        Files.write(values, lines);
        Session s = session(dir);
        assertEquals(Status.OK, s.shell().execute("summary"));
        String before = s.out().toString(StandardCharsets.UTF_8);
        assertEquals(Status.OK, s.shell().execute("values where op_name ~ \"dot\" show count()"));
        assertEquals(Status.OK, s.shell().execute("blame"));
        String err = s.err().toString(StandardCharsets.UTF_8);
        assertEquals(1, err.split("expected a value block line", -1).length - 1, err);
        assertTrue(err.contains(values + ":9: expected a value block line, found 'garbage here'"), err);
        s.out().reset();
        assertEquals(Status.OK, s.shell().execute("summary"));
        String out = s.out().toString(StandardCharsets.UTF_8);
        assertEquals(before, out);
    }

    /** The four files of a corpus module copied to {@code dir}; returns its values file. */
    private static Path copy(Path dir) throws IOException {
        Path values = null;
        try (Stream<Path> files = Files.list(Corpus.require("jax-0.10.2/transformer-2layer"))) {
            for (Path f : files.toList()) {
                Path to = Files.copy(f, dir.resolve(f.getFileName()));
                if (to.getFileName().toString().endsWith("-buffer-assignment-values.txt")) values = to;
            }
        }
        return values;
    }

    /**
     * The idle prompt reads the current module's section in the background, printing nothing; a
     * statement that needs it waits for that read, and Ctrl-C (an interrupt) stops both, keeping
     * nothing; the next use reads again. Its warnings print before the next statement, once.
     */
    @Test
    void theIdlePromptReadsInTheBackground() throws Exception {
        CountDownLatch started = new CountDownLatch(1), release = new CountDownLatch(1);
        int[] reads = {0};
        UsedValues.Handle section = new UsedValues.Handle((values, sequence) -> {
            synchronized (reads) {
                reads[0]++;
            }
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new PartReadException("cancelled", true);
            }
            return new UsedValues(List.of(), List.of(), List.of(), List.of(),
                    List.of(new LoadWarning("m-buffer-assignment-values.txt", 9, "bad line")), 1);
        });
        HloModule m = emptyModuleReading(section);
        Session session = session(m);
        Shell shell = session.shell();
        ByteArrayOutputStream err = session.err();

        readOnlyAtIdle(shell);
        started.await();
        assertEquals(0, err.size(), "the background read prints nothing");
        // A statement that needs the section waits for the read; Ctrl-C meanwhile stops both.
        Thread.currentThread().interrupt();
        assertEquals(Status.ERROR, shell.execute("values where op_name ~ \"x\" show count()"));
        Thread.interrupted();
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("error: cancelled (Ctrl-C)"), err.toString(StandardCharsets.UTF_8));
        assertThrows(java.util.concurrent.ExecutionException.class, () -> shell.backgroundRead(m).get());
        assertFalse(m.usedValues().isRead(), "nothing of a stopped read is kept");

        release.countDown();
        readOnlyAtIdle(shell);   // a stopped background read is not started again
        assertEquals(Status.OK, shell.execute("values where op_name ~ \"x\" show count()"));
        assertTrue(m.usedValues().isRead());
        assertEquals(2, reads[0], "read again by the statement");
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, e.split("bad line", -1).length - 1, e);
    }

    /** The idle work's first step alone: a statement is entered at once, so the script engine does not start. */
    static void readOnlyAtIdle(Shell shell) {
        shell.idle(() -> false, shown -> fail("nothing to show: " + shown));
    }

    /** A module "m" of no values whose Used values section is {@code section}, read on first use. */
    static HloModule emptyModuleReading(UsedValues.Handle section) {
        HloModule.Info info = new HloModule.Info("m", "m", 0, "cpu", List.of("m-buffer-assignment.txt"), -1, null, null,
                -1, null, new TreeMap<>(), true, null);
        return new HloModuleBuilder(info).details(section).build();
    }

    /** A finished background read's warnings print before the next statement, once. */
    @Test
    void backgroundWarningsPrintBeforeTheNextStatement() throws Exception {
        UsedValues.Handle section = new UsedValues.Handle((values, sequence) -> new UsedValues(List.of(), List.of(),
                List.of(), List.of(), List.of(new LoadWarning("m-buffer-assignment-values.txt", 9, "bad line")), 1));
        HloModule m = emptyModuleReading(section);
        Session session = session(m);
        Shell shell = session.shell();
        ByteArrayOutputStream err = session.err();
        readOnlyAtIdle(shell);
        shell.backgroundRead(m).get();
        assertTrue(m.usedValues().isRead());
        assertEquals(0, err.size(), "nothing printed at the prompt");
        assertEquals(Status.OK, shell.execute("set timer off"));
        assertEquals(Status.OK, shell.execute("set timer off"));
        String e = err.toString(StandardCharsets.UTF_8);
        // the warning once, before the first statement's own line (set's confirmation)
        assertEquals("bufq: warning: m-buffer-assignment-values.txt:9: bad line\ntimer = off\ntimer = off\n", e);
    }

    /** On a terminal a read of a big values file says what it reads, and clears the line after; never on a pipe. */
    @Test
    void aDeferredReadShowsProgressOnATerminal() throws Exception {
        Path dump = Corpus.require("jax-0.10.2/transformer-2layer");
        for (boolean terminal : List.of(true, false)) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            // Threshold 0: the corpus files are small; the rule is the same.
            DeferredReads reads = new DeferredReads(new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), terminal), 0);
            HloModule m = bufq.dump.DumpLoader.load(List.of(dump)).get(0);
            assertFalse(m.usedValues().isRead());
            reads.read(m);
            assertTrue(m.usedValues().isRead());
            String e = err.toString(StandardCharsets.UTF_8);
            if (!terminal) {
                assertEquals("", e);
                continue;
            }
            assertTrue(e.startsWith("\rreading module_0000.jit_step.cpu_after_optimizations-buffer-assignment-values.txt ("), e);
            assertTrue(e.endsWith(" MB) for op_name, uses and instructions \r\033[K"), e);
        }
    }
}
