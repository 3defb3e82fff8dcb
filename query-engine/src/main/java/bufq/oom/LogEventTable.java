package bufq.oom;

import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.table.ColumnType;
import bufq.units.PrintedSize;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The warnings of the log around the failures, each beside the failure it explains (the first
 * out-of-memory message after it, else the last before) and joined to the loaded module it is about:
 * by the program it names (a recompiled jit, a {@code memory_analysis} of {@code module_0008.jit__lambda}),
 * by its figures (a memory analysis whose temp and arguments are a module's), or by its shapes (a
 * donation of the shape of a module's entry parameter).
 */
final class LogEventTable {
    private LogEventTable() {}

    static Table table(OomText text, List<HloModule> modules) {
        Table.Builder b = Table.builder().title("warnings in the log")
                .column("line", ColumnType.INT).column("kind", ColumnType.STRING).optionalColumn("program", ColumnType.STRING)
                .optionalColumn("module", ColumnType.STRING).optionalColumn("beside", ColumnType.INT)
                .optionalColumn("figure", ColumnType.STRING).column("says", ColumnType.STRING)
                .optionalColumn("evidence", ColumnType.STRING);
        for (LogEvent e : text.events()) {
            String[] join = join(e, modules);
            Map.Entry<String, ByteSize> main = e.figures().isEmpty() ? null : e.figures().entrySet().iterator().next();
            PrintedSize figure = main == null ? null : main.getValue().printed();
            Integer beside = beside(e.line(), text.messages());
            b.row((long) e.line(), e.kind(), e.program(), join[0], beside == null ? null : (long) (int) beside, figure,
                    cut(e.says()), join[1]);
        }
        b.note("beside: the out-of-memory message the warning comes before (else the last one after it)");
        b.note("figure: rematerialization's target, the donations' bytes, a memory analysis' peak");
        return Tables.withoutEmptyDetails(b.build());
    }

    /** The message number (1-based) a warning at {@code line} is beside, or null when there is none. */
    static Integer beside(int line, List<OomMessage> messages) {
        for (int i = 0; i < messages.size(); i++) if (messages.get(i).line() > line) return i + 1;
        return messages.isEmpty() ? null : messages.size();
    }

    /** The modules (handles, comma-separated) the warning is about and why, or nulls. */
    static String[] join(LogEvent e, List<HloModule> modules) {
        List<String> found = new ArrayList<>();
        String why = null;
        if (e.program() != null) {
            for (HloModule m : modules) {
                if (ModuleMatch.named(m, e.program()) || e.program().equals(Tables.dumpName(m))) found.add(m.handle());
            }
            if (!found.isEmpty()) why = "program name " + e.program();
        }
        if (e.kind().equals("memory-analysis")) {
            ByteSize temp = e.figures().get("temp_size_in_bytes"), args = e.figures().get("argument_size_in_bytes");
            List<String> byFigures = new ArrayList<>();
            for (HloModule m : modules) {
                boolean t = temp != null && temp.lo() == sum(m, a -> a.isTemp() && !a.threadLocal());
                boolean p = args != null && args.lo() == sum(m, BufferAllocation::isParameter);
                if (t && (p || args == null)) byFigures.add(m.handle());
            }
            // by figures alone only when they single out a module: a temp of 0 bytes is every small program's
            if (found.isEmpty() && !byFigures.isEmpty() && temp.lo() > 0) {
                found = byFigures;
                why = "temp_size_in_bytes and argument_size_in_bytes are the module's temp and parameter allocations";
            } else if (!found.isEmpty()) {
                why += found.stream().anyMatch(byFigures::contains) ? "; its temp and parameter allocations are these figures"
                        : "; the dump's temp or parameter allocations differ from these figures (another compilation?)";
            }
        }
        if (e.kind().equals("donation") && !e.shapes().isEmpty()) {
            for (HloModule m : modules) {
                for (BufferAllocation a : m.allocations()) {
                    if (a.isParameter() && a.parameterShape() != null
                            && e.shapes().contains(BufferMatch.dims(a.parameterShape().text()))) {
                        found.add(m.handle());
                        why = "an entry parameter of the shape the donation lost";
                        break;
                    }
                }
            }
        }
        return found.isEmpty() ? new String[]{null, null} : new String[]{String.join(", ", found), why};
    }

    private static long sum(HloModule m, Predicate<BufferAllocation> p) {
        long s = 0;
        for (BufferAllocation a : m.allocations()) if (p.test(a)) s += a.size();
        return s;
    }

    private static String cut(String s) { return s.length() > 300 ? s.substring(0, 297) + "..." : s; }
}
