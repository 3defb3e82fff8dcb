package bufq.shell.script;

import bufq.lang.NearNames;
import org.graalvm.polyglot.Value;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Watches one script field's results so a silent mistake is said once: a function that returns
 * NaN or undefined for a row, or reads a property its row does not have ({@code v.idle_step} for
 * {@code v.idle_steps}), which JavaScript answers with undefined and arithmetic turns into NaN.
 * A NaN result becomes null, so queries treat it as no value (comparisons false, {@code is null}).
 * One watch per registration: defining the field again tells again.
 */
final class FieldWatch {
    private final String what;
    private final List<String> fields;
    private final AtomicBoolean told = new AtomicBoolean();

    /**
     * @param what   how messages name the field, e.g. {@code field 'p' of values}
     * @param fields the names a row of its entity has, for "did you mean"
     */
    FieldWatch(String what, List<String> fields) {
        this.what = what;
        this.fields = fields;
    }

    /**
     * The cell to keep for {@code row}'s result {@code v} (converted: {@code cell}): NaN becomes
     * null. The first row that gives NaN or undefined, or reads a property the row lacks, is told
     * to {@code tell}.
     */
    Object check(Rows.Row row, Value v, Object cell, Consumer<String> tell) {
        boolean nan = cell instanceof Double d && d.isNaN();
        boolean undefined = v != null && v.isNull() && "undefined".equals(v.toString());
        String missing = row.missing();
        if ((nan || undefined || missing != null) && !told.getAndSet(true)) {
            tell.accept(message(row, nan ? "NaN" : undefined ? "undefined" : null, missing));
        }
        return nan ? null : cell;
    }

    private String message(Rows.Row row, String gave, String missing) {
        StringBuilder b = new StringBuilder(what);
        if (gave != null) b.append(" gave ").append(gave).append(" for ").append(row.subject());
        else b.append(" read a property ").append(row.subject()).append(" does not have");
        if (missing != null) {
            b.append(gave != null ? ": it reads '" : ": '").append(missing).append("', which ").append(row.entity)
                    .append(" rows do not have");
            List<String> near = NearNames.near(missing, fields);
            if (!near.isEmpty()) b.append(" (did you mean '").append(near.get(0)).append("'?)");
        }
        b.append("; such results are null (told once per field)");
        return b.toString();
    }
}
