package bufq.shell.session;

import bufq.shell.api.Command;
import bufq.shell.api.ScriptEngine;
import bufq.shell.run.Shell;
import bufq.api.Extensions;
import bufq.shell.cli.Bufq;
import bufq.shell.command.Commands;
import bufq.shell.repl.PlainRepl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The session through {@link Shell#execute}: output files, colour, internal errors, the plain REPL. */
class ShellSessionTest {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    Shell shell(Env env) {
        Shell s = Bufq.shell(new FakeEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env);
        s.modules().addModules(List.of(FakeEngine.module("m")));
        return s;
    }

    String out() { return out.toString(StandardCharsets.UTF_8); }
    String err() { return err.toString(StandardCharsets.UTF_8); }

    @Test
    void outputFileAppearsOnlyWhenClosedAndWhole(@TempDir Path dir) throws IOException {
        Shell s = shell(new Env(Map.of(), false));
        Path f = dir.resolve("r.csv");
        assertEquals(Status.OK, s.execute("format csv"));
        assertEquals(Status.OK, s.execute("output \"" + f + "\""));
        assertEquals(Status.OK, s.execute("values"));
        assertFalse(Files.exists(f), "target must not exist before the output is closed");
        assertEquals(1, listing(dir).size(), "one temporary file beside the target");
        assertEquals(Status.OK, s.execute("output"));
        assertEquals("id,name,size\n1,p0,64\n2,add.1,128\n3,mul.2,128\n", Files.readString(f));
        assertEquals(List.of(f), listing(dir), "no temporary file left");
        assertEquals("", out(), "nothing went to the console");
        assertTrue(err().contains("wrote " + f));
    }

    @Test
    void outputNeverClobbersWithoutForce(@TempDir Path dir) throws IOException {
        Shell s = shell(new Env(Map.of(), false));
        Path f = Files.writeString(dir.resolve("keep.txt"), "precious\n");
        assertEquals(Status.ERROR, s.execute("output " + f));
        assertTrue(err().contains("exists; use 'output " + f + " --force' to replace it"), err());
        s.execute("values");
        assertTrue(out().contains("add.1"), "results still go to the console");
        assertEquals("precious\n", Files.readString(f));
        assertEquals(Status.OK, s.execute("output " + f + " --force"));
        s.execute("values limit 1");
        s.close();
        assertTrue(Files.readString(f).contains("p0"));
        assertEquals(List.of(f), listing(dir));
    }

    @Test
    void fileCreatedMeanwhileIsKept(@TempDir Path dir) throws IOException {
        Shell s = shell(new Env(Map.of(), false));
        Path f = dir.resolve("late.txt");
        assertEquals(Status.OK, s.execute("output " + f));
        s.execute("values");
        Files.writeString(f, "someone else\n");
        assertEquals(Status.ERROR, s.execute("output"));
        assertEquals("someone else\n", Files.readString(f));
        assertEquals(List.of(f), listing(dir));
    }

    @Test
    void outputToTheSameFileTwiceIsRefused(@TempDir Path dir) throws IOException {
        Shell s = shell(new Env(Map.of(), false));
        Path f = dir.resolve("same.txt");
        assertEquals(Status.OK, s.execute("output " + f));
        assertEquals(Status.ERROR, s.execute("output " + f));
        assertTrue(err().contains("results already go to " + f), err());
        s.execute("values limit 1");
        s.close();
        assertTrue(Files.readString(f).contains("p0"));
    }

    @Test
    void aFailedWriteNeverPublishesTheFile(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("full.txt");
        int[] writes = {0};
        OutputSink sink = OutputSink.file(f, false, w -> new java.io.FilterWriter(w) {
            @Override public void write(String str, int off, int len) throws IOException {
                if (++writes[0] == 2) throw new IOException("No space left on device");
                super.write(str, off, len);
            }
        });
        Shell s = shell(new Env(Map.of(), false));
        s.printer().switchSink(sink);
        assertEquals(Status.OK, s.execute("values limit 1"));
        assertEquals(Status.ERROR, s.execute("values"));
        assertTrue(err().contains("error: writing " + f + " failed (No space left on device); the file was not written"), err());
        assertEquals(Status.OK, s.execute("values limit 1"));
        assertTrue(out().contains("p0"), "back on the screen: " + out());
        s.close();
        assertEquals(List.of(), listing(dir), "neither the file nor a temporary one");
    }

    /** A disk that fills when {@code output} closes the file (its last buffer) said only "No space left on device". */
    @Test
    void aFullDiskAtCloseNamesTheFile(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("full.txt");
        OutputSink sink = OutputSink.file(f, false, w -> new java.io.FilterWriter(w) {
            @Override public void flush() throws IOException { throw new IOException("No space left on device"); }
        });
        Shell s = shell(new Env(Map.of(), false));
        s.printer().switchSink(sink);
        assertEquals(Status.OK, s.execute("values limit 1"));
        assertEquals(Status.ERROR, s.execute("output"));
        assertTrue(err().contains("error: " + f + " was not written: No space left on device"), err());
        assertEquals(List.of(), listing(dir), "neither the file nor a temporary one");
    }

    @Test
    void outputNeverRenamesOverDevicesOrLinks(@TempDir Path dir) throws IOException {
        Shell s = shell(new Env(Map.of(), false));
        assertEquals(Status.ERROR, s.execute("output /dev/null --force"));
        assertTrue(err().contains("cannot write /dev/null: /dev/null is not a regular file"), err());
        Path real = Files.writeString(dir.resolve("real.txt"), "keep\n");
        Path link = Files.createSymbolicLink(dir.resolve("link.txt"), real);
        assertEquals(Status.ERROR, s.execute("output " + link + " --force"));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("keep\n", Files.readString(real));
    }

    @Test
    void outputIntoMissingDirectoryIsAnError() {
        Shell s = shell(new Env(Map.of(), false));
        assertEquals(Status.ERROR, s.execute("output /nonexistent-dir/x.txt"));
        assertTrue(err().contains("cannot write /nonexistent-dir/x.txt"), err());
    }

    @Test
    void aReadOnlyDirectoryIsNamedAsTheUsersPathNotTheTemporaryFile(@TempDir Path tmp) throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("ro"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
        if (!refusesNewFiles(dir)) dir = Path.of("/sys");  // root writes anywhere; sysfs refuses even root
        assumeTrue(refusesNewFiles(dir), "no directory here refuses new files");
        Path target = dir.resolve("out.md");
        Shell s = shell(new Env(Map.of(), false));
        assertEquals(Status.ERROR, s.execute("output " + target));
        assertTrue(err().contains("error: cannot write " + target + ": directory " + dir + " is not writable\n"), err());
        assertFalse(err().contains(".tmp"), "the temporary file is ours, not the user's: " + err());
    }

    private static boolean refusesNewFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return false;
        Path probe = dir.resolve("probe-" + ProcessHandle.current().pid());
        try {
            Files.delete(Files.createFile(probe));
            return false;
        } catch (AccessDeniedException e) {
            return true;
        }
    }

    @Test
    void aKilledRunsTemporaryFilesAreRemovedAndNothingElse(@TempDir Path dir) throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        long dead = gone.pid(), alive = ProcessHandle.current().pid();
        String here = TempFiles.host();
        Path stale = Files.writeString(dir.resolve(".r.csv." + dead + "@" + here + "-abc.tmp"), "half a result");
        Path staleOther = Files.writeString(dir.resolve(".q.csv." + dead + "@" + here + "-abc.tmp"), "another file's, dead");
        Path live = Files.writeString(dir.resolve(".r.csv." + alive + "@" + here + "-abc.tmp"), "being written");
        Path elsewhere = Files.writeString(dir.resolve(".r.csv." + dead + "@other-host-abc.tmp"), "another machine's writer");
        Path unproven = Files.writeString(dir.resolve(".r.csv.abc.tmp"), "no pid: not provably ours");
        Path noHost = Files.writeString(dir.resolve(".r.csv." + dead + "-abc.tmp"), "no host: not provably this machine's");
        Shell s = shell(new Env(Map.of(), false));
        assertEquals(Status.OK, s.execute("output " + dir.resolve("r.csv")));
        assertFalse(Files.exists(stale) || Files.exists(staleOther), "the dead writers' temporary files are gone: " + listing(dir));
        assertTrue(Files.exists(live) && Files.exists(elsewhere) && Files.exists(unproven) && Files.exists(noHost), listing(dir).toString());
        s.execute("values limit 1");
        s.close();
        assertEquals(java.util.stream.Stream.of(noHost, elsewhere, live, unproven, dir.resolve("r.csv")).sorted().toList(),
                listing(dir).stream().sorted().toList());
    }

    @Test
    void aKilledRunsTemporaryFileIsRemovedEvenWhenTheWriteIsRefused(@TempDir Path dir) throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path target = Files.writeString(dir.resolve("r.csv"), "an earlier result");
        Path stale = Files.writeString(dir.resolve(".r.csv." + gone.pid() + "@" + TempFiles.host() + "-abc.tmp"), "half a result");
        Shell s = shell(new Env(Map.of(), false));
        assertEquals(Status.ERROR, s.execute("output " + target));
        s.close();
        assertTrue(err().contains("--force"), err());
        assertEquals(List.of(target), listing(dir), "the refusal still removed the dead writer's file");
    }

    @Test
    void anEmptyOutputNameAsksForAFileName() {
        Shell s = shell(new Env(Map.of(), false));
        assertEquals(Status.ERROR, s.execute("output \"\""));
        assertTrue(err().contains("output: a file name is expected, not an empty one"), err());
        assertFalse(err().contains("is a directory"), err());
    }

    @Test
    void colourOnlyOnATerminalAndNeverWithNoColor() {
        Shell tty = shell(new Env(Map.of(), true));
        tty.execute("values");
        assertTrue(out().contains("\033[1m"), "bold header on a terminal");
        out.reset();
        Shell noColor = shell(new Env(Map.of("NO_COLOR", "1"), true));
        noColor.execute("set color on");
        noColor.execute("values");
        assertFalse(out().contains("\033["), "NO_COLOR wins");
        out.reset();
        Shell pipe = shell(new Env(Map.of(), false));
        pipe.execute("values");
        assertFalse(out().contains("\033["));
    }

    @Test
    void internalErrorsAreOneLineUnlessDebugging() {
        Shell s = shell(new Env(Map.of(), false));
        assertEquals(Status.ERROR, s.execute("values crash"));
        assertEquals("bufq: internal error: java.lang.IllegalStateException: simulated bug "
                + "(run with BUFQ_DEBUG=1 for the stack trace)\n", err());
        err.reset();
        Shell d = shell(new Env(Map.of("BUFQ_DEBUG", "1"), false));
        d.execute("values crash");
        assertTrue(err().contains("\tat bufq.shell.session.FakeEngine.query"), err());
    }

    @Test
    void scriptErrorsNameFileAndLine(@TempDir Path dir) throws IOException {
        Path script = Files.writeString(dir.resolve("s.bq"), "# header\nvalues limit 1\n\nnope\nvalues \\\n  limit 2\n");
        Shell s = shell(new Env(Map.of(), false));
        assertEquals(Status.ERROR, s.execute("run " + script));
        assertTrue(err().contains(script + ":4: error: unknown command 'nope'"), err());
        assertTrue(out().contains("(1 row)") && out().contains("(2 rows)"), out());
    }

    @Test
    void scriptThatRunsItselfStops(@TempDir Path dir) throws IOException {
        Path script = dir.resolve("loop.bq");
        Files.writeString(script, "run " + script + "\n");
        Shell s = shell(new Env(Map.of(), false));
        assertEquals(Status.ERROR, s.execute("run " + script));
        assertTrue(err().contains("scripts nested too deeply"), err());
    }

    @Test
    void jsScriptsGoToTheJavaScriptHost() {
        Shell s = shell(new Env(Map.of(), false));
        assertEquals(Status.ERROR, s.execute("run x.js"));
        assertTrue(err().contains("cannot read x.js: no such file"), err());
    }

    /** The session knows its script engine only by {@link ScriptEngine}: run, -f and js go through it. */
    @Test
    void runHandsScriptFilesToTheScriptEngine() {
        List<Path> ran = new ArrayList<>();
        ScriptEngine recording = new ScriptEngine() {
            @Override public String extension() { return "js"; }
            @Override public Status eval(String code, String sourceName) { return Status.OK; }
            @Override public Status runFile(Path file) { ran.add(file); return Status.OK; }
            @Override public void runInit() {}
            @Override public boolean incomplete(String code) { return code.endsWith("{"); }
            @Override public List<Extensions.Check> checks() { return List.of(); }
            @Override public void cancel() {}
            @Override public void close() {}
        };
        Shell s = new Shell(new FakeEngine(), Commands.standard(), session -> recording,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new Env(Map.of(), false));
        s.modules().addModules(List.of(FakeEngine.module("m")));
        assertEquals(Status.OK, s.execute("run lib/peak.JS"));
        assertEquals(List.of(Path.of("lib/peak.JS")), ran);
        assertTrue(s.needsMore("js if (x) {"), "the engine decides when its code is unfinished");
        assertFalse(s.needsMore("js if (x) {}"));
        assertEquals(Status.ERROR, s.execute("run notes.txt"), "other kinds are read as .bq and fail to open");
        assertEquals(List.of(Path.of("lib/peak.JS")), ran);
    }

    @Test
    void plainReplPromptsWithModuleAndContinues() {
        Shell s = shell(new Env(Map.of(), true));
        String typed = "values limit\n1\nset rawsizes on\nhistory\nquit\nvalues\n";
        int code = new PlainRepl(new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8))).run(s);
        assertEquals(0, code);
        String o = out();
        assertTrue(o.contains("bufq:m> "), o);
        assertTrue(o.contains("   ...> "), "continuation prompt: " + o);
        assertTrue(o.contains("values limit 1"), "history shows the joined statement: " + o);
        assertTrue(o.contains("p0"), o);
        assertFalse(o.contains("mul.2"), "nothing after quit ran: " + o);
    }

    @Test
    void handlesStayUnique() {
        Shell s = shell(new Env(Map.of(), false));
        s.modules().addModules(List.of(FakeEngine.module("m"), FakeEngine.module("m")));
        assertEquals(List.of("m", "m#2", "m#3"), s.modules().set().entries().stream().map(ModuleSet.Entry::handle).toList());
        assertEquals("m#3", s.modules().set().entries().get(2).loaded().handle(), "the module itself carries the handle");
        assertEquals("m#2", s.current().handle(), "the first new module becomes current");
    }

    @Test
    void everyCommandHasHelpWithExamples() {
        Shell s = shell(new Env(Map.of(), false));
        for (bufq.shell.api.Command c : s.commands().all()) {
            out.reset();
            assertEquals(Status.OK, s.execute("help " + c.name()), c.name());
            assertTrue(out().startsWith(c.synopsis() + "\n"), out());
            assertTrue(out().contains("Examples:\n  "), out());
            assertFalse(c.examples().isEmpty(), c.name());
            assertTrue(c.brief().length() <= 80, "brief fits a line: " + c.name());
        }
    }

    @Test
    void bigDirectoriesAreReadLazilyWithBoundedMemory() throws Exception {
        FakeEngine engine = new FakeEngine();
        Shell s = Bufq.shell(engine, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), false));
        s.modules().load(List.of(Path.of("many")));
        assertEquals(40, s.modules().set().size());
        assertEquals(1, engine.parsed.get(), "only the current module is read at load time");
        assertEquals("m0", s.current().handle());
        assertEquals(Status.OK, s.execute("summary"));
        assertEquals(40, out().split("\n").length - 3, "a row per module: " + out());
        long inMemory = s.modules().set().entries().stream().filter(e -> e.loaded() != null).count();
        assertTrue(inMemory <= ModuleSet.CACHE + 1, inMemory + " modules kept in memory");
        assertEquals(Status.OK, s.execute("use m20"));
        assertEquals("m20", s.current().handle());
        assertEquals(Status.OK, s.execute("values limit 1"));
    }

    @Test
    void aBadModuleInABigDirectoryFailsWhenRead() throws Exception {
        Shell s = shell(new Env(Map.of(), false));
        s.modules().load(List.of(Path.of("many-badlast")));
        assertEquals(Status.ERROR, s.execute("summary"));
        assertTrue(err().contains("many-badlast:1: not a buffer-assignment dump"), err());
        assertEquals(Status.ERROR, s.execute("use m39"));
        assertEquals(Status.OK, s.execute("use m38"));
    }

    @Test
    void checkSummaryOnceOnATerminalAndOnStderrWhenResultsGoElsewhere() {
        Shell tty = shell(new Env(Map.of(), true));
        tty.execute("check");
        String both = out() + err();
        assertEquals(1, both.split("checks \\(", -1).length - 1, "one summary on a terminal: " + both);
        out.reset();
        err.reset();
        Shell pipe = shell(new Env(Map.of(), false));
        pipe.execute("check");
        assertEquals(1, (out() + err()).split("checks \\(", -1).length - 1, "a pipe read on a terminal shows one summary too: " + out() + err());
        out.reset();
        err.reset();
        tty.execute("format json");
        tty.execute("check");
        assertTrue(err().contains("checks ("), "json has no notes, so stderr says it: " + err());
    }

    @Test
    void timerTimesTheStatementsAfterItNotItself() {
        Shell s = shell(new Env(Map.of(), false));
        s.execute("timer on");
        assertFalse(err().contains("Time: "), "timer on timed itself: " + err());
        s.execute("values");
        assertTrue(err().contains("Time: "), err());
        err.reset();
        s.execute("timer off");
        assertFalse(err().contains("Time: "), err());
    }

    @Test
    void anInterruptedQueryIsNotShown() {
        Shell s = shell(new Env(Map.of(), false));
        Thread.currentThread().interrupt();
        try {
            assertEquals(Status.ERROR, s.execute("values"));
        } finally {
            Thread.interrupted();
        }
        assertEquals("", out());
        assertTrue(err().contains("error: query cancelled (Ctrl-C)"), err());
        assertEquals(Status.OK, s.execute("values"), "the next statement runs");
    }

    @Test
    void progressOnlyOnATerminal() throws Exception {
        Shell tty = shell(new Env(Map.of(), true));
        tty.modules().load(List.of(Path.of("many")));
        tty.execute("summary");
        assertTrue(err().contains("\rreading module 41/41 "), err());
        err.reset();
        Shell pipe = shell(new Env(Map.of(), false));
        pipe.modules().load(List.of(Path.of("many")));
        pipe.execute("summary");
        assertFalse(err().contains("reading module"), err());
    }

    @Test
    void interruptCancelsALongSummary() throws Exception {
        Shell s = shell(new Env(Map.of(), false));
        s.modules().load(List.of(Path.of("many")));
        Thread.currentThread().interrupt();
        try {
            assertEquals(Status.ERROR, s.execute("summary"));
        } finally {
            Thread.interrupted();
        }
        assertTrue(err().contains("error: cancelled (Ctrl-C)"), err());
    }

    private static List<Path> listing(Path dir) throws IOException {
        try (var st = Files.list(dir)) {
            return st.sorted().toList();
        }
    }
}
