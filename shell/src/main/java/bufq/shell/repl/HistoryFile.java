package bufq.shell.repl;

import bufq.shell.session.TempFiles;


import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The REPL's history on disk: {@code $XDG_STATE_HOME/bufq/history}, else
 * {@code ~/.local/state/bufq/history}. One entry per line, with {@code \n} and {@code \\} escaped so a
 * multi-line query stays one entry. Saving never writes in place: the file is rebuilt in a temporary
 * file beside it, synced, and renamed over the old one, so a crash leaves the old history whole.
 * A save merges: it re-reads the file and appends this session's new entries, so two shells open
 * at once both keep their lines.
 * A file with bytes that are not UTF-8 (an editor's or another tool's damage) is not fatal: its
 * readable lines are kept and written back as the history, the damaged file is set aside beside it
 * as {@code history.unreadable-N}, and the notice callback says so once. A file larger than
 * {@link #MAX_BYTES} (one pasted 50 MB line) is set aside whole as {@code history.large-N} before
 * its newest entries are written back, so nothing in it is lost.
 * A history path that is not a regular file (a FIFO, a device such as {@code /dev/zero} behind a
 * link) is neither read nor written, with one notice; a symbolic link is written through to its
 * target, which stays a link. At most {@link #MAX_BYTES} are read, from the end.
 */
public final class HistoryFile {
    /** Entries kept on disk; the oldest go first. */
    public static final int MAX_ENTRIES = 2000;
    /** Most bytes read: the newest part of a larger file (2,000 entries are far less). */
    public static final int MAX_BYTES = 4 << 20;

    private final Path path;
    private final List<String> unsaved = new ArrayList<>();
    private final Consumer<String> notices;
    /** Set once the path turned out not to be a regular file: the history is then kept in memory only. */
    private boolean skipped;

    public HistoryFile(Path path) {
        this(path, notice -> { });
    }

    /** {@code notices} hears, in one line, when a damaged history file was set aside. */
    public HistoryFile(Path path, Consumer<String> notices) {
        this.path = path;
        this.notices = notices;
    }

    /** Where the history lives for these environment variables (XDG base directory rules). */
    public static Path location(Map<String, String> env) {
        String xdg = env.get("XDG_STATE_HOME");
        if (xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()) return Path.of(xdg, "bufq", "history");
        String home = env.get("HOME");
        if (home == null || home.isEmpty()) home = System.getProperty("user.home");
        return Path.of(home, ".local", "state", "bufq", "history");
    }

    public Path path() { return path; }

    /**
     * The saved entries, oldest first; none when the file does not exist yet. Lines that are not
     * UTF-8 are dropped; if there were any, the file is set aside and the readable lines rewritten.
     */
    public List<String> load() throws IOException {
        List<String> out = new ArrayList<>();
        if (skipped) return out;
        Path file = target();
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            // A FIFO blocked the shell before its prompt; /dev/zero filled the heap.
            skipped = true;
            notices.accept("history " + path + " is not a regular file (a FIFO, device or directory); history is not read or saved");
            return out;
        }
        byte[] bytes;
        long from;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            from = Math.max(0, size - MAX_BYTES);
            ByteBuffer buf = ByteBuffer.allocate((int) (size - from));
            ch.position(from);
            while (buf.hasRemaining() && ch.read(buf) > 0) { }
            bytes = buf.array();
            if (from > 0) {
                // Cut at the first whole entry.
                int nl = 0;
                while (nl < bytes.length && bytes[nl] != '\n') nl++;
                bytes = Arrays.copyOfRange(bytes, Math.min(nl + 1, bytes.length), bytes.length);
            }
        } catch (NoSuchFileException e) {
            return out;
        }
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        int unreadable = 0;
        for (int start = 0; start < bytes.length; ) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') end++;
            try {
                String line = utf8.decode(ByteBuffer.wrap(bytes, start, end - start)).toString().replace("\r", "");
                if (!line.isEmpty()) out.add(unescape(line));
            } catch (CharacterCodingException e) {
                unreadable++;
            }
            start = end + 1;
        }
        if (unreadable > 0) {
            Path aside = setAside("unreadable");
            write(out);
            notices.accept("history " + path + " had " + unreadable + (unreadable == 1 ? " line that is" : " lines that are")
                    + " not UTF-8; kept the " + out.size() + " readable entries, the damaged file is now " + aside);
        } else if (from > 0) {
            // Larger than 2,000 entries ever make (one pasted 50 MB line): the part not read would be
            // lost when a save replaces the file, so the whole file is kept aside first.
            Path aside = setAside("large");
            write(out);
            notices.accept("history " + path + " is larger than " + (MAX_BYTES >> 20) + " MiB; kept its last " + out.size()
                    + (out.size() == 1 ? " entry" : " entries") + ", the whole file is now " + aside);
        }
        return out;
    }

    /**
     * The file the history is in: the path itself, or where its symbolic links lead (followed a
     * bounded number of times; a dangling link's target is where the file will be made).
     */
    private Path target() throws IOException {
        Path p = path;
        for (int hops = 0; hops < 40 && Files.isSymbolicLink(p); hops++) {
            Path to = Files.readSymbolicLink(p);
            p = p.toAbsolutePath().getParent().resolve(to).normalize();
        }
        return p;
    }

    /** Moves the file to the first free {@code NAME.WHY-N} beside it ({@code history.unreadable-1}, {@code history.large-1}). */
    private Path setAside(String why) throws IOException {
        Path file = target();
        for (int n = 1; ; n++) {
            Path aside = file.resolveSibling(file.getFileName() + "." + why + "-" + n);
            try {
                Files.move(file, aside);
                return aside;
            } catch (FileAlreadyExistsException taken) {
                // try the next number
            }
        }
    }

    /** Remembers an entry for the next {@link #save()}. */
    public synchronized void add(String entry) {
        if (!entry.isBlank()) unsaved.add(entry);
    }

    /** Appends the entries added since the last save to what is on disk, atomically. */
    public synchronized void save() throws IOException {
        if (unsaved.isEmpty()) return;
        List<String> all = load();
        if (skipped) return;
        all.addAll(unsaved);
        if (all.size() > MAX_ENTRIES) all = all.subList(all.size() - MAX_ENTRIES, all.size());
        write(all);
        unsaved.clear();
    }

    /** Replaces the file with these entries: a synced temporary file renamed over it. */
    private void write(List<String> all) throws IOException {
        StringBuilder b = new StringBuilder();
        for (String e : all) b.append(escape(e)).append('\n');
        Path path = target();   // a link's target is replaced; the link stays
        Path dir = path.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        // Named with pid and host like output files, so a killed session's temporary file is removed here.
        TempFiles.removeDead(dir);
        Path tmp = TempFiles.create(dir, path.getFileName().toString());
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));   // what one typed is private
        } catch (UnsupportedOperationException | IOException ignored) {
            // not a POSIX file system
        }
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE);
                 OutputStream os = Channels.newOutputStream(ch)) {
                os.write(b.toString().getBytes(StandardCharsets.UTF_8));
                os.flush();
                ch.force(true);
            }
            try {
                Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "");
    }

    static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char d = s.charAt(++i);
                b.append(d == 'n' ? '\n' : d);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
