package bufq.shell.session;

import java.io.IOException;

/** Messages about files the user named. */
public final class UserPaths {
    private UserPaths() {}

    /** {@code e}'s message for "cannot read FILE: ...": its own message, else what it is. */
    public static String message(IOException e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
