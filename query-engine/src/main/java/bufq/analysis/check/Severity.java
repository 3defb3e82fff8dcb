package bufq.analysis.check;

/** How bad a check finding is; {@code ERROR} makes {@code bufq -c check} exit 1. */
public enum Severity { ERROR, WARN, INFO }
