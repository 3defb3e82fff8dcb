package bufq.shell.repl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.time.Duration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Where history lives and how it is written: whole, merged, never half. */
class HistoryFileTest {
    @TempDir Path tmp;

    @Test
    void locationFollowsXdgThenHome() {
        assertEquals(Path.of("/x/state/bufq/history"), HistoryFile.location(Map.of("XDG_STATE_HOME", "/x/state", "HOME", "/h")));
        assertEquals(Path.of("/h/.local/state/bufq/history"), HistoryFile.location(Map.of("HOME", "/h")));
        assertEquals(Path.of("/h/.local/state/bufq/history"), HistoryFile.location(Map.of("XDG_STATE_HOME", "rel", "HOME", "/h")),
                "a relative XDG_STATE_HOME is ignored, as the spec says");
    }

    @Test
    void multiLineEntriesAndBackslashesRoundTrip() throws IOException {
        HistoryFile f = new HistoryFile(tmp.resolve("a/b/history"));
        List<String> entries = List.of("values where\nsize > 1", "help \\\nformats", "values where label = \"a\\\"b\"");
        entries.forEach(f::add);
        f.save();
        assertEquals(entries, new HistoryFile(f.path()).load());
        assertEquals(3, Files.readAllLines(f.path()).size(), "one line per entry");
    }

    @Test
    void twoSessionsBothKeepTheirLines() throws IOException {
        Path p = tmp.resolve("history");
        HistoryFile one = new HistoryFile(p), two = new HistoryFile(p);
        one.add("a");
        two.add("b");
        one.save();
        two.save();
        one.add("c");
        one.save();
        assertEquals(List.of("a", "b", "c"), new HistoryFile(p).load());
    }

    @Test
    void oldEntriesFallOffAtTheCap() throws IOException {
        HistoryFile f = new HistoryFile(tmp.resolve("history"));
        List<String> many = new ArrayList<>();
        for (int i = 0; i < HistoryFile.MAX_ENTRIES + 10; i++) many.add("values limit " + i);
        many.forEach(f::add);
        f.save();
        List<String> kept = f.load();
        assertEquals(HistoryFile.MAX_ENTRIES, kept.size());
        assertEquals("values limit 10", kept.get(0));
    }

    @Test
    void saveReplacesTheFileAndLeavesNoTemporaryFile() throws IOException {
        Path p = tmp.resolve("history");
        Files.writeString(p, "old\n");
        Object inode = Files.getAttribute(p, "unix:ino");
        HistoryFile f = new HistoryFile(p);
        f.add("new");
        f.save();
        assertEquals(List.of("old", "new"), f.load());
        assertNotEquals(inode, Files.getAttribute(p, "unix:ino"), "a new file renamed into place, not written in place");
        try (var s = Files.list(tmp)) {
            assertEquals(List.of(p), s.toList());
        }
    }

    @Test
    void nothingNewMeansNoWrite() throws IOException {
        HistoryFile f = new HistoryFile(tmp.resolve("none/history"));
        f.save();
        assertFalse(Files.exists(f.path()));
        assertEquals(List.of(), f.load());
    }

    @Test
    void aFileThatIsNotUtf8KeepsItsReadableLinesIsSetAsideAndSavingGoesOn() throws IOException {
        Path p = tmp.resolve("history");
        byte[] bad = {'v', 'a', 'l', 'u', 'e', 's', ' ', (byte) 0xC3, (byte) 0x28, '\n'};
        try (var out = Files.newOutputStream(p)) {
            out.write("values limit 1\n".getBytes());
            out.write(bad);
            out.write("help\n".getBytes());
        }
        List<String> notices = new ArrayList<>();
        HistoryFile f = new HistoryFile(p, notices::add);
        assertEquals(List.of("values limit 1", "help"), f.load());
        Path aside = tmp.resolve("history.unreadable-1");
        assertTrue(Files.exists(aside), "the damaged file is set aside beside itself");
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.get(0).contains("1 line that is not UTF-8; kept the 2 readable entries"), notices.get(0));
        assertTrue(notices.get(0).contains(aside.toString()), notices.get(0));

        f.add("tiling");
        f.save();
        assertEquals(List.of("values limit 1", "help", "tiling"), new HistoryFile(p).load());
        assertEquals(1, notices.size(), "said once: the rewritten history reads cleanly");
        try (var s = Files.list(tmp)) {
            assertEquals(2, s.count(), "the history and the one file set aside, no temporaries");
        }
    }

    @Test
    void aKilledSessionsTemporaryFileIsRemovedByTheNextSave() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        String here = bufq.shell.session.TempFiles.host();
        Path stale = Files.writeString(tmp.resolve(".history." + gone.pid() + "@" + here + "-abc.tmp"), "half a history");
        Path foreign = Files.writeString(tmp.resolve(".history.x1.tmp"), "what Files.createTempFile made: not provably dead");
        HistoryFile f = new HistoryFile(tmp.resolve("history"));
        f.add("summary");
        f.save();
        try (var s = Files.list(tmp)) {
            assertEquals(List.of(foreign, f.path()), s.sorted().toList());
        }
        assertFalse(Files.exists(stale));
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f.path())),
                "the history stays private");
    }

    // ---- history paths that are not plain files ----

    @Test
    void aFifoIsSkippedWithOneNoticeInsteadOfBlocking() throws Exception {
        Path p = tmp.resolve("history");
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assertEquals(0, mk.waitFor(), "mkfifo");
        List<String> notices = new ArrayList<>();
        HistoryFile f = new HistoryFile(p, notices::add);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            assertEquals(List.of(), f.load());
            f.add("values");
            f.save();
        });
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.get(0).contains("is not a regular file"), notices.get(0));
        assertTrue((Boolean) Files.getAttribute(p, "basic:isOther"), "the FIFO is left as it was");
    }

    @Test
    void aLinkToADeviceIsSkipped() throws Exception {
        Path p = tmp.resolve("history");
        Files.createSymbolicLink(p, Path.of("/dev/zero"));
        List<String> notices = new ArrayList<>();
        HistoryFile f = new HistoryFile(p, notices::add);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertEquals(List.of(), f.load()));
        f.add("values");
        f.save();
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(Files.isSymbolicLink(p), "the link stays");
    }

    @Test
    void aLinkedHistoryIsWrittenThroughToItsTarget() throws Exception {
        Path real = Files.createDirectories(tmp.resolve("dotfiles")).resolve("bufq-history");
        Files.writeString(real, "old\n");
        Path p = tmp.resolve("history");
        Files.createSymbolicLink(p, Path.of("dotfiles/bufq-history"));
        HistoryFile f = new HistoryFile(p);
        f.add("new");
        f.save();
        assertTrue(Files.isSymbolicLink(p), "the link is not replaced by a file");
        assertEquals(List.of("old", "new"), Files.readAllLines(real));
        assertEquals(List.of("old", "new"), new HistoryFile(p).load());
    }

    @Test
    void onlyTheNewestPartOfAHugeFileIsRead() throws Exception {
        Path p = tmp.resolve("history");
        StringBuilder b = new StringBuilder();
        for (int i = 0; b.length() <= HistoryFile.MAX_BYTES + 100_000; i++) b.append("values limit ").append(i).append('\n');
        Files.writeString(p, b);
        List<String> got = new HistoryFile(p).load();
        assertTrue(got.size() * 16L < HistoryFile.MAX_BYTES, "read at most MAX_BYTES: " + got.size());
        assertEquals(b.substring(b.lastIndexOf("values", b.length() - 2)).strip(), got.get(got.size() - 1));
        assertTrue(got.get(0).matches("values limit \\d+"), "starts at a whole entry: " + got.get(0));
    }

    /** A history of one 50 MB line was replaced by the next save, the line lost; it is kept aside whole first. */
    @Test
    void aFileOfOneHugeLineIsKeptAsideBeforeItIsReplaced() throws Exception {
        Path p = tmp.resolve("history");
        byte[] huge = new byte[50 << 20];
        Arrays.fill(huge, (byte) 'x');
        huge[huge.length - 1] = '\n';
        Files.write(p, huge);
        List<String> notices = new ArrayList<>();
        HistoryFile f = new HistoryFile(p, notices::add);
        f.add("summary");
        f.save();
        Path aside = tmp.resolve("history.large-1");
        assertEquals(huge.length, Files.size(aside), "the old file, whole");
        assertEquals(List.of("summary"), new HistoryFile(p).load());
        assertEquals(List.of("history " + p + " is larger than 4 MiB; kept its last 0 entries, the whole file is now " + aside), notices);
    }
}
