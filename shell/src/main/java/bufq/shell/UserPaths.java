package bufq.shell;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Messages about files the user named. A file is opened at {@link Env#resolve} (under a resident
 * server, the client's directory), but the user must read the path as they wrote it, exactly as a
 * run started in that directory would print it.
 */
public final class UserPaths {
    private UserPaths() {}

    /** {@code e}'s message with the opened path {@code read} spelled as {@code shown}. */
    public static String message(IOException e, Path read, String shown) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        String r = read.toString();
        return r.equals(shown) || r.isEmpty() ? m : m.replace(r, shown);
    }
}
