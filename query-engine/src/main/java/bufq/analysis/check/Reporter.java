package bufq.analysis.check;

/** Where a {@link CheckRule} reports what it finds. Not thread-safe: one per rule run. */
public interface Reporter {
    void report(Severity severity, String subject, String message);

    default void error(String subject, String message) { report(Severity.ERROR, subject, message); }
    default void warn(String subject, String message) { report(Severity.WARN, subject, message); }
    default void info(String subject, String message) { report(Severity.INFO, subject, message); }
}
