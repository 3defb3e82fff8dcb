package bufq.shell.session;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * bufq's temporary files, {@code .NAME.PID@HOST-RANDOM.tmp} beside the file NAME they become (an
 * {@code output} file, a picture, the history). The pid and host let a later run prove that one is
 * its own and that its writer is dead: the host is this one (a directory may be shared between
 * machines or containers, where another's pid means nothing here) and no process has that pid.
 * Only such files are ever deleted; anything else is left alone.
 */
public final class TempFiles {
    private TempFiles() {}

    private static final Pattern NAME = Pattern.compile("\\.(.+)\\.(\\d{1,18})@([A-Za-z0-9.-]+)-[0-9a-z]+\\.tmp");

    private static volatile String host;

    /** This machine's name, as the temporary files carry it (letters, digits, '.' and '-'). */
    public static String host() {
        String h = host;
        if (h != null) return h;
        String name = null;
        try {
            name = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException | RuntimeException e) {
            name = System.getenv("HOSTNAME");
        }
        if (name == null || name.isBlank()) {
            try {
                name = InetAddress.getLocalHost().getHostName();
            } catch (IOException | RuntimeException e) {
                name = "unknown";
            }
        }
        h = name.replaceAll("[^A-Za-z0-9.-]", "_").replace('_', '-');
        if (h.isEmpty()) h = "unknown";
        if (h.length() > 64) h = h.substring(0, 64);
        return host = h;
    }

    /** Creates a new empty temporary file for {@code name} in {@code dir}, with the process's umask. */
    public static Path create(Path dir, String name) throws IOException {
        return make(dir, name, p -> Files.createFile(p));
    }

    /** What {@link #make} makes at a free name. */
    private interface Maker {
        Path make(Path p) throws IOException;
    }

    /** {@code maker} at a new name {@code .NAME.PID@HOST-RANDOM.tmp} in {@code dir}. */
    private static Path make(Path dir, String name, Maker maker) throws IOException {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        for (int attempt = 0; ; attempt++) {
            try {
                return maker.make(name(dir, name, Long.toUnsignedString(rnd.nextLong(), 36)));
            } catch (FileAlreadyExistsException e) {
                if (attempt >= 100) throw e;
            }
        }
    }

    /** The temporary name of {@code name} in {@code dir} that ends {@code -TAG.tmp}, this process's. */
    public static Path name(Path dir, String name, String tag) {
        return dir.resolve("." + name + "." + ProcessHandle.current().pid() + "@" + host() + "-" + tag + ".tmp");
    }

    /**
     * bufq's own folder in the system's temporary folder, {@code bufq-USER}, made readable by its
     * owner alone; a link or a folder of another user there is refused. What a run keeps in it
     * (DuckDB's spill) is in a folder named as {@link #create} names files, which a later run removes
     * once its writer is dead.
     */
    public static Path ownFolder() throws IOException {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "bufq-" + user);
        try {
            Files.createDirectory(dir, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException e) {
            // made by an earlier run: checked below
        } catch (UnsupportedOperationException e) {
            Files.createDirectories(dir);
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS))
            throw new IOException(dir + " is not a folder (a link or a file is not used)");
        try {
            String owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
            if (!owner.equals(System.getProperty("user.name"))) throw new IOException(dir + " belongs to " + owner + ", not to this user");
        } catch (UnsupportedOperationException | SecurityException e) {
            // no owners on this file system
        }
        return dir;
    }

    /** Makes a new folder for {@code name} in {@code dir}, named as {@link #create} names files. */
    public static Path createFolder(Path dir, String name) throws IOException {
        return make(dir, name, p -> Files.createDirectory(p));
    }

    /** Deletes {@code dir} and what it holds, links as links (never what they point at); what cannot be deleted stays. */
    public static void deleteTree(Path dir) {
        try (java.util.stream.Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException | java.io.UncheckedIOException | SecurityException e) {
            // left behind: a later run removes it
        }
    }

    /** As {@link #removeDead}, for the folders {@link #createFolder} made: each removed with what it holds. */
    public static void removeDeadFolders(Path dir) {
        String here = host();
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, p -> NAME.matcher(p.getFileName().toString()).matches())) {
            for (Path p : entries) {
                Matcher m = NAME.matcher(p.getFileName().toString());
                if (!m.matches() || !m.group(3).equals(here) || !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) continue;
                long pid = Long.parseLong(m.group(2));
                if (pid != self && ProcessHandle.of(pid).isEmpty()) deleteTree(p);
            }
        } catch (IOException | DirectoryIteratorException | SecurityException e) {
            // left as it is
        }
    }

    /**
     * Deletes the temporary files that killed runs (kill -9, a power cut) left in {@code dir}, for
     * any name: only regular files named as {@link #create} names them, made on this host by a pid
     * that is no longer alive. Cleaning up is a courtesy: what cannot be listed or deleted stays.
     */
    public static void removeDead(Path dir) {
        String here = host();
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, p -> NAME.matcher(p.getFileName().toString()).matches())) {
            for (Path p : entries) {
                Matcher m = NAME.matcher(p.getFileName().toString());
                if (!m.matches() || !m.group(3).equals(here) || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) continue;
                long pid = Long.parseLong(m.group(2));
                if (pid != self && ProcessHandle.of(pid).isEmpty()) Files.deleteIfExists(p);
            }
        } catch (IOException | DirectoryIteratorException | SecurityException e) {
            // left as it is
        }
    }
}
