package bufq.shell;

import java.nio.file.Path;

/**
 * Runs script files of one kind for {@code run FILE} and {@code -f FILE}, chosen by extension
 * ({@code .bq} is built in). The JavaScript host registers itself with
 * {@link Shell#registerScriptHost}; it should start its engine inside {@link #run}, not when
 * registered, so sessions that never run a script never load it.
 */
public interface ScriptHost {
    /**
     * Runs {@code file}, a path as the user wrote it (errors name it so). Errors it reports itself make the result {@link Status#ERROR}.
     */
    Status run(Shell shell, Path file) throws CommandException;
}
