package bufq.analysis.check;

/**
 * One thing a check found.
 *
 * @param check   the rule's name ({@code overlap}, ...)
 * @param subject what it is about: a value label, {@code allocation 3}, the module handle
 */
public record Finding(String check, Severity severity, String subject, String message) {}
