package bufq.shell.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Messages about files the user named. */
public final class UserPaths {
    private UserPaths() {}

    /** {@code e}'s message for "cannot read FILE: ...": its own message, else what it is. */
    public static String message(IOException e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /**
     * Refuses a script path that is not a regular file: reading a FIFO blocks for ever, a device
     * such as /dev/zero never ends. A missing file passes (the read says "no such file").
     */
    public static void requireRegularFile(Path file) throws IOException {
        if (Files.isDirectory(file)) throw new IOException("is a directory, not a script");
        if (Files.exists(file) && !Files.isRegularFile(file))
            throw new IOException("not a regular file (a FIFO, device or socket), not a script");
    }
}
