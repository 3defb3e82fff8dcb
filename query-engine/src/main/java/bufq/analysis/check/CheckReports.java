package bufq.analysis.check;

import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;

import java.util.List;
import java.util.Locale;

/**
 * What {@code check} found over several modules (a dump directory): one {@link CheckReport} per
 * module, shown as one table with a {@code module} column so csv and json still get one table, a
 * summary line per module and a total that counts every module's errors.
 */
public record CheckReports(List<CheckReport> reports) {
    public CheckReports {
        reports = List.copyOf(reports);
    }

    public boolean hasErrors() { return reports.stream().anyMatch(CheckReport::hasErrors); }

    public long count(Severity s) { return reports.stream().mapToLong(r -> r.count(s)).sum(); }

    /** The findings of every module (columns module, check, severity, subject, message), a note per module and the total. */
    public Table table() {
        Table.Builder b = Table.builder().key("check").title("check " + reports.size() + " modules")
                .column("module", ColumnType.STRING).column("check", ColumnType.STRING)
                .column("severity", ColumnType.STRING).column("subject", ColumnType.STRING)
                .column("message", ColumnType.STRING);
        for (CheckReport r : reports)
            for (Finding f : r.findings())
                b.row(r.module(), f.check(), f.severity().name().toLowerCase(Locale.ROOT), f.subject(), f.message());
        for (CheckReport r : reports) b.note(r.module() + ": " + counts(r.count(Severity.ERROR), r.count(Severity.WARN), r.count(Severity.INFO)));
        b.note(summary());
        return b.build();
    }

    public List<Output> outputs() { return List.of(table()); }

    /** {@code 2 modules checked, 1 with errors: 3 errors, 0 warnings, 1 note (8 checks each: overlap, ...)}. */
    public String summary() {
        long bad = reports.stream().filter(CheckReport::hasErrors).count();
        List<String> rules = reports.isEmpty() ? List.of() : reports.get(0).rules();
        return reports.size() + " modules checked, " + bad + " with errors: "
                + counts(count(Severity.ERROR), count(Severity.WARN), count(Severity.INFO))
                + " (" + rules.size() + " checks each: " + String.join(", ", rules) + ")";
    }

    private static String counts(long e, long w, long i) {
        return e + (e == 1 ? " error, " : " errors, ") + w + (w == 1 ? " warning, " : " warnings, ") + i + (i == 1 ? " note" : " notes");
    }
}
