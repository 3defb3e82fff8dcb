package bufq.shell.fuzz;

import bufq.shell.repl.HistoryFile;
import bufq.shell.session.ExitCode;
import bufq.shell.session.OutputSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Files the user owns: results sent with {@code output FILE} and the REPL history appear
 * whole or not at all. Each is written to a temporary file beside the target and renamed over it,
 * so the old file's bytes are never touched in place: a hard link to the old file still reads the
 * old text afterwards, and a writer that fails part-way (a full disk) or a session that never ends
 * (a crash) leaves the old file as it was and no temporary file behind.
 */
class UserFilesTest {
    @TempDir Path dir;

    static final String OLD = "the user's old report\n";

    /** A writer that accepts {@code budget} characters, then fails as a full disk does. */
    static Writer failingAfter(Writer w, int budget) {
        return new FilterWriter(w) {
            int left = budget;

            @Override public void write(String s, int off, int len) throws IOException {
                if (len > left) {
                    super.write(s, off, left);
                    left = 0;
                    throw new IOException("No space left on device");
                }
                left -= len;
                super.write(s, off, len);
            }
        };
    }

    private Path old(String name) throws IOException {
        return Files.writeString(dir.resolve(name), OLD);
    }

    private List<Path> leftovers() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
        }
    }

    @Test
    void aWriterThatFailsPartWayLeavesTheOldFile() throws Exception {
        Path target = old("report.txt");
        OutputSink sink = OutputSink.file(target, true, w -> failingAfter(w, 10_000));
        sink.write("x".repeat(9_000));
        assertThrows(IOException.class, () -> sink.write("y".repeat(9_000)));
        IOException later = assertThrows(IOException.class, () -> sink.write("z"));
        assertTrue(later.getMessage().contains("an earlier write to " + target + " failed"), later.getMessage());
        IOException closing = assertThrows(IOException.class, sink::close);
        assertTrue(closing.getMessage().startsWith(target + " was not written: No space left on device"), closing.getMessage());
        assertEquals(OLD, Files.readString(target));
        assertEquals(List.of(), leftovers());
    }

    /** A full disk met when the last buffer is flushed (at {@code output} closing) named no file. */
    @Test
    void aFullDiskAtTheLastFlushNamesTheFile() throws Exception {
        Path target = old("report.txt");
        OutputSink sink = OutputSink.file(target, true, w -> new java.io.FilterWriter(w) {
            @Override public void flush() throws IOException { throw new IOException("No space left on device"); }
        });
        sink.write("x".repeat(100));
        IOException closing = assertThrows(IOException.class, sink::close);
        assertEquals(target + " was not written: No space left on device", closing.getMessage());
        assertEquals(OLD, Files.readString(target));
        assertEquals(List.of(), leftovers());
    }

    @Test
    void aSessionThatNeverEndsLeavesTheOldFile() throws Exception {
        Path target = old("report.txt");
        OutputSink sink = OutputSink.file(target, true);
        sink.write("half of a new report");
        // The process dies here: nothing has touched the target.
        assertEquals(OLD, Files.readString(target));
        sink.close();
        assertEquals("half of a new report", Files.readString(target));
    }

    @Test
    void replacingNeverWritesTheOldFileInPlace() throws Exception {
        Path target = old("report.txt");
        Path link = Files.createLink(dir.resolve("old-inode"), target);
        OutputSink sink = OutputSink.file(target, true);
        sink.write("new");
        sink.close();
        assertEquals("new", Files.readString(target));
        assertEquals(OLD, Files.readString(link));
        assertEquals(List.of(), leftovers());
    }

    @Test
    void outputRefusesToClobberWithoutForce() throws Exception {
        Path target = old("peak.csv");
        Path dump = Path.of(System.getProperty("bufq.root", "..")).resolve("examples/seeds/004_0cb419b3147a3cb6.txt");
        CliDumpFuzzTest.Run r = CliDumpFuzzTest.bufq("no force", "-c", "output " + target, "-c", "values limit 2", dump.toString());
        assertEquals(ExitCode.FAILED, r.code(), r.err());
        assertTrue(r.err().contains(target + " exists; use 'output " + target + " --force' to replace it"), r.err());
        assertEquals(OLD, Files.readString(target));

        r = CliDumpFuzzTest.bufq("force", "-c", "output " + target + " --force", "-c", "format csv", "-c", "values limit 2", dump.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(Files.readString(target).startsWith("id,label,"), Files.readString(target));
        assertEquals(List.of(), leftovers());
    }

    @Test
    void historyIsReplacedByRenameNeverInPlace() throws Exception {
        Path history = dir.resolve("state/bufq/history");
        HistoryFile h = new HistoryFile(history);
        h.add("values limit 1");
        h.save();
        Path link = Files.createLink(dir.resolve("old-history"), history);
        String before = Files.readString(history);
        h.add("peak");
        h.save();
        assertEquals(before, Files.readString(link));
        assertEquals(List.of("values limit 1", "peak"), new HistoryFile(history).load());
    }

    @Test
    void aHistorySaveThatCannotFinishLeavesNoHalfFile() throws Exception {
        // The history's name is taken by a directory: not a regular file, so the save is skipped
        // with one notice, and nothing half-written (no temporary file, no partial
        // history) is left beside it.
        Path history = dir.resolve("history");
        Files.createDirectories(history.resolve("keep"));
        List<String> notices = new java.util.ArrayList<>();
        HistoryFile h = new HistoryFile(history, notices::add);
        h.add("values limit 1");
        h.save();
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(Files.isDirectory(history.resolve("keep")));
        assertEquals(List.of(), leftovers());
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of("history"), s.map(p -> p.getFileName().toString()).toList());
        }
    }

    /** A new file gets the umask's permissions, as the shell's {@code >} gives; a replaced one keeps its own. */
    @Test
    void writtenFilesHaveTheUsualPermissions() throws IOException {
        Path probe = Files.createFile(dir.resolve("probe"));   // what this process's umask gives
        Path fresh = dir.resolve("fresh.txt");
        OutputSink s = OutputSink.file(fresh, false);
        s.write("x\n");
        s.close();
        assertEquals(Files.getPosixFilePermissions(probe), Files.getPosixFilePermissions(fresh));
        Path kept = old("kept.txt");
        Files.setPosixFilePermissions(kept, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"));
        OutputSink t = OutputSink.file(kept, true);
        t.write("new\n");
        t.close();
        assertEquals("new\n", Files.readString(kept));
        assertEquals("rw-r-----", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)));
    }

    /** A statement cancelled with Ctrl-C (its thread interrupted) publishes nothing. */
    @Test
    void aCancelledRunPublishesNothing() throws IOException {
        Path target = old("cancelled.txt");
        OutputSink s = OutputSink.file(target, true);
        s.write("half of a report\n");
        Thread.currentThread().interrupt();
        try {
            IOException e = assertThrows(IOException.class, s::close);
            assertTrue(e.getMessage().contains("was not written: cancelled"), e.getMessage());
        } finally {
            Thread.interrupted();
        }
        assertEquals(OLD, Files.readString(target));
        assertEquals(List.of(), leftovers());
    }

    /**
     * 300 histories (fixed seed) of good lines with random bytes spliced into some of
     * them. Loading never fails, keeps every good line in order, leaves a history that is UTF-8, and
     * the session still saves.
     */
    @Test
    void historiesWithRandomBytesKeepTheirGoodLinesAndStillSave() throws IOException {
        Random rnd = new Random(17);
        for (int c = 0; c < 300; c++) {
            Path home = Files.createDirectory(dir.resolve("case" + c));
            Path p = home.resolve("history");
            List<String> good = new ArrayList<>();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (int l = rnd.nextInt(6); l >= 0; l--) {
                if (rnd.nextInt(3) == 0) {
                    byte[] junk = new byte[1 + rnd.nextInt(12)];
                    rnd.nextBytes(junk);
                    junk[0] = (byte) (0x80 | (junk[0] & 0x3F));  // a stray continuation byte: never UTF-8
                    for (int j = 0; j < junk.length; j++) if (junk[j] == '\n') junk[j] = (byte) 0xFF;
                    bytes.writeBytes(junk);
                } else {
                    String line = "values limit " + rnd.nextInt(1000) + (rnd.nextBoolean() ? " -- é" : "");
                    good.add(line);
                    bytes.writeBytes(line.getBytes(StandardCharsets.UTF_8));
                }
                bytes.write('\n');
            }
            Files.write(p, bytes.toByteArray());
            List<String> notices = new ArrayList<>();
            HistoryFile f = new HistoryFile(p, notices::add);
            assertEquals(good, f.load(), "case " + c);
            f.add("tiling");
            f.save();
            List<String> saved = new ArrayList<>(good);
            saved.add("tiling");
            assertEquals(saved, Files.readAllLines(p, StandardCharsets.UTF_8), "case " + c + ": UTF-8 and whole");
            try (Stream<Path> files = Files.list(home)) {
                assertEquals(notices.size() + 1, files.count(), "case " + c + ": one file set aside per notice, no temporaries");
            }
            assertTrue(notices.size() <= 1, "case " + c + ": said once: " + notices);
        }
    }
}
