package bufq.analysis.check;

import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;

import java.util.List;
import java.util.Locale;

/**
 * What {@code check} found: every finding in rule order, and which rules ran.
 *
 * @param module handle of the module checked
 * @param rules  names of the rules run, in order
 */
public record CheckReport(String module, List<String> rules, List<Finding> findings) {
    public CheckReport {
        rules = List.copyOf(rules);
        findings = List.copyOf(findings);
    }

    public boolean hasErrors() { return count(Severity.ERROR) > 0; }

    public long count(Severity s) { return findings.stream().filter(f -> f.severity() == s).count(); }

    /** Findings of one rule. */
    public List<Finding> of(String rule) { return findings.stream().filter(f -> f.check().equals(rule)).toList(); }

    /** The findings as a table (columns check, severity, subject, message) with a one-line summary note. */
    public Table table() {
        Table.Builder b = Table.builder().key("check").title("check " + module)
                .column("check", ColumnType.STRING).column("severity", ColumnType.STRING)
                .column("subject", ColumnType.STRING).column("message", ColumnType.STRING);
        for (Finding f : findings) b.row(f.check(), f.severity().name().toLowerCase(Locale.ROOT), f.subject(), f.message());
        b.note(summary());
        return b.build();
    }

    public List<Output> outputs() { return List.of(table()); }

    /** {@code 6 checks (overlap, ...): 0 errors, 1 warning, 2 notes}. */
    public String summary() {
        long e = count(Severity.ERROR), w = count(Severity.WARN), i = count(Severity.INFO);
        return rules.size() + " checks (" + String.join(", ", rules) + "): " + e + (e == 1 ? " error, " : " errors, ")
                + w + (w == 1 ? " warning, " : " warnings, ") + i + (i == 1 ? " note" : " notes");
    }
}
