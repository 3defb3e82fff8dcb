package bufq.shell.cli;

import java.io.PrintStream;

/**
 * The line a run prints as it ends when the launcher asked the JVM to write its class-data archive
 * at exit ({@code -XX:ArchiveClassesAtExit}): the JVM then takes a few seconds after the last
 * output, once per build, and a silent pause reads as a hang.
 */
final class ArchiveNotice {
    /** System property the launcher sets on the run that writes the archive. */
    static final String PROPERTY = "bufq.archiveAtExit";

    static final String TEXT = "bufq: saving a startup archive for faster starts (a few seconds, once after each build)";

    private ArchiveNotice() {}

    /** Prints {@link #TEXT} on {@code err} when {@code property} (the value of {@link #PROPERTY}) is set. */
    static void print(String property, PrintStream err) {
        if (property != null && !property.isEmpty()) {
            err.println(TEXT);
            err.flush();
        }
    }
}
