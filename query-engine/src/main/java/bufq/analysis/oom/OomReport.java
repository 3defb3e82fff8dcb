package bufq.analysis.oom;

import bufq.analysis.category.Categories;
import bufq.analysis.category.CategoryRules;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.Shape;
import bufq.table.Column;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import bufq.units.PrintedSize;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code oom}: what the messages of a paste say, and their join to the loaded modules. A pure
 * function of the messages and the modules; five tables: the messages, the modules and allocations
 * they are about (ranked), the warnings of the log around them, the buffers they list with the
 * values each is, and their figures re-derived from the dump.
 */
public final class OomReport {
    private OomReport() {}

    /** The four tables for {@code text} against {@code modules} (which may be empty). */
    public static List<Output> run(OomText text, List<HloModule> modules) {
        List<List<ModuleMatch>> ranked = new ArrayList<>();
        for (OomMessage m : text.messages()) ranked.add(ModuleMatch.rank(m, modules));
        List<Output> out = new ArrayList<>();
        if (!text.messages().isEmpty()) {
            out.add(messages(text));
            out.add(modules(text, ranked, modules));
        }
        Table events = warnings(text, modules);
        if (events.size() > 0) out.add(events);
        Table buffers = buffers(text, ranked);
        if (buffers.size() > 0) out.add(buffers);
        Table figures = Figures.table(text, ranked);
        if (figures.size() > 0) out.add(figures);
        return out;
    }

    /**
     * What one message is about, as the join ranks it first: the module (null when none matches)
     * and the allocation it failed on (null when not known). For {@code fit} and {@code advise}.
     */
    public record Join(OomMessage message, int number, HloModule module, BufferAllocation allocation) {}

    /**
     * Bytes of the joined module's allocations in the message's memory space (HBM: colour 0) that
     * XLA:TPU's compile-time check counts: all but the thread-local ones; -1 when the message joined
     * no module.
     */
    public static long spaceTotal(Join j) {
        return j.module() == null ? -1 : ModuleMatch.checkedBytes(j.module(), ModuleMatch.color(j.message().memorySpace()));
    }

    /** Each message of {@code text} joined to its best module among {@code modules}, in message order. */
    public static List<Join> joins(OomText text, List<HloModule> modules) {
        List<Join> out = new ArrayList<>();
        for (int i = 0; i < text.messages().size(); i++) {
            OomMessage m = text.messages().get(i);
            List<ModuleMatch> r = ModuleMatch.rank(m, modules);
            out.add(r.isEmpty() ? new Join(m, i + 1, null, null) : new Join(m, i + 1, r.get(0).module(), r.get(0).allocation()));
        }
        return out;
    }

    static Table messages(OomText text) {
        Table.Builder b = Table.builder().key("out_of_memory_messages").title("out-of-memory messages")
                .column("message", ColumnType.INT).column("line", ColumnType.INT).column("family", ColumnType.STRING)
                .column("requested", ColumnType.STRING).optionalColumn("requested_bytes", ColumnType.BYTES)
                .optionalColumn("capacity", ColumnType.STRING).optionalColumn("used", ColumnType.STRING)
                .optionalColumn("free", ColumnType.STRING).optionalColumn("exceeded", ColumnType.STRING)
                .optionalColumn("program", ColumnType.STRING).optionalColumn("device", ColumnType.STRING)
                .optionalColumn("space", ColumnType.STRING).optionalColumn("allocation_index", ColumnType.INT)
                .column("buffers", ColumnType.INT).optionalColumn("printed", ColumnType.INT)
                .optionalColumn("also_at", ColumnType.LIST);
        int k = 0;
        for (OomMessage m : text.messages()) {
            k++;
            b.row((long) k, (long) m.line(), m.family().word(), m.requested(),
                    m.requested() != null && m.requested().isExact() ? m.requested().low() : null,
                    m.capacity(), m.used(), m.free(), m.exceeded(), m.program(), m.device(),
                    m.memorySpace(), m.allocationIndex() >= 0 ? (Object) (long) m.allocationIndex() : null,
                    (long) m.buffers().size(), m.times() > 1 ? (Object) (long) m.times() : null, alsoAt(m.repeats()));
        }
        b.note("sizes as printed, with the byte counts that print that way where the message rounds them");
        for (OomMessage m : text.messages()) {
            if (m.capacity() != null && m.memorySpace() != null && !m.memorySpace().equals("hbm")) {
                b.note("capacity is of the memory space in 'space' (" + m.memorySpace() + " holds " + m.capacity().text()
                        + "), not of HBM: 'fit' states it beside its HBM check, and never takes it as the capacity");
                break;
            }
        }
        if (text.messages().stream().anyMatch(m -> !m.repeats().isEmpty()))
            b.note("printed: how many times the failure is printed; also_at: the first lines of its copies (one failure, one row)");
        for (OomWarning w : text.allWarnings()) b.note("warning: " + w);
        return withoutEmptyDetails(b.build());
    }

    /** The first five lines where a failure is printed again, or null when printed once. */
    static List<Long> alsoAt(List<Integer> lines) {
        if (lines.isEmpty()) return null;
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < Math.min(5, lines.size()); i++) out.add((long) lines.get(i));
        return out;
    }

    static Table modules(OomText text, List<List<ModuleMatch>> ranked, List<HloModule> loaded) {
        Table.Builder b = Table.builder().key("which_module_and_allocation").title("which module and allocation")
                .column("message", ColumnType.INT).column("rank", ColumnType.INT).column("module", ColumnType.STRING)
                .optionalColumn("dump_name", ColumnType.STRING).column("allocation", ColumnType.INT).column("kind", ColumnType.STRING)
                .column("allocation_size", ColumnType.BYTES).column("evidence", ColumnType.STRING)
                .column("next", ColumnType.STATEMENT).column("then", ColumnType.STATEMENT).column("holds", ColumnType.STRING);
        for (int i = 0; i < ranked.size(); i++) {
            OomMessage msg = text.messages().get(i);
            List<ModuleMatch> cs = ranked.get(i);
            if (cs.isEmpty()) {
                b.row((long) (i + 1), null, null, null, null, null, null, Unmatched.why(msg, loaded), Unmatched.next(msg, loaded), null, null);
                continue;
            }
            int top = cs.get(0).score();
            int tied = 0;
            for (ModuleMatch c : cs) if (c.score() == top) tied++;
            for (int r = 0; r < cs.size(); r++) {
                ModuleMatch c = cs.get(r);
                BufferAllocation a = c.allocation();
                String evidence = String.join(", ", c.reasons());
                if (tied > 1 && c.score() == top) evidence += " (ambiguous: " + tied + " modules match as well)";
                String then = a != null ? "map " + a.index() : "peak";
                b.row((long) (i + 1), (long) (r + 1), c.module().handle(), dumpName(c.module()), a == null ? null : (long) a.index(),
                        a == null ? null : a.kind(), a == null ? null : a.size(), evidence, "use " + c.module().handle(), then,
                        a == null ? null : Categories.holding(c.module(), CategoryRules.NONE, a.index()));
            }
        }
        if (loaded.isEmpty()) b.note("no modules loaded: load the dump directory of the run (load DIR) to join the messages to it");
        else b.columnNote("next", "next and then are statements to run in turn: 'use' makes the module current for map, peak and why");
        return b.build();
    }

    static Table buffers(OomText text, List<List<ModuleMatch>> ranked) {
        Table.Builder b = Table.builder().key("listed_buffers").title("listed buffers")
                .column("message", ColumnType.INT).column("rank", ColumnType.INT).column("size", ColumnType.STRING)
                .column("shape", ColumnType.STRING).optionalColumn("op_name", ColumnType.STRING)
                .optionalColumn("source", ColumnType.STRING).optionalColumn("label", ColumnType.STRING)
                .optionalColumn("allocation_type", ColumnType.STRING).optionalColumn("unpadded", ColumnType.STRING)
                .optionalColumn("padding", ColumnType.STRING).optionalColumn("expansion", ColumnType.FLOAT)
                .column("module", ColumnType.STRING)
                .column("values", ColumnType.STRING).column("match", ColumnType.STRING)
                .column("candidates", ColumnType.INT).column("next", ColumnType.STATEMENT);
        b.columnNote("next", "next runs on the module of its row (use MODULE first when it is not the current one)");
        for (int i = 0; i < ranked.size(); i++) {
            OomMessage msg = text.messages().get(i);
            List<ModuleMatch> cs = ranked.get(i);
            for (ListedBuffer lb : msg.buffers()) {
                HloModule m = moduleFor(lb, cs);
                BufferMatch bm = m == null ? new BufferMatch(BufferMatch.NONE, List.of()) : BufferMatch.find(lb, m);
                List<HloValue> vs = bm.values();
                String next = vs.isEmpty() ? null : "why " + vs.get(0).id();
                b.row((long) (i + 1), lb.rank() >= 0 ? (Object) (long) lb.rank() : null, lb.size(), lb.shape(),
                        lb.opName(), lb.source(), shortLabel(lb), lb.allocationType(), lb.unpadded(), lb.padding(),
                        expansion(lb), m == null ? null : m.handle(),
                        names(vs), bm.kind(), vs.size() > 1 ? (Object) (long) vs.size() : null, next);
            }
        }
        return b.build();
    }

    /** How many times its unpadded size the TPU tiles make a buffer ({@code Size} / {@code Unpadded size}), or null. */
    static Double expansion(ListedBuffer lb) {
        if (lb.size() == null || lb.unpadded() == null || lb.unpadded().mid() == 0) return null;
        return Math.round(100.0 * lb.size().mid() / lb.unpadded().mid()) / 100.0;
    }

    /** The module a buffer is looked up in: its chunk's executable where named, else the best candidate. */
    private static HloModule moduleFor(ListedBuffer lb, List<ModuleMatch> cs) {
        if (lb.executable() != null) for (ModuleMatch c : cs) if (ModuleMatch.named(c.module(), lb.executable())) return c.module();
        return cs.isEmpty() ? null : cs.get(0).module();
    }

    private static String shortLabel(ListedBuffer lb) {
        if (lb.label() == null) return lb.kind();
        String l = lb.label();
        return l.length() > 80 ? l.substring(0, 77) + "..." : l;
    }

    /** Up to three values as {@code id name}, then how many more. */
    static String names(List<HloValue> vs) {
        if (vs.isEmpty()) return null;
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(3, vs.size()); i++) {
            if (i > 0) s.append(", ");
            s.append(vs.get(i).id()).append(' ').append(vs.get(i).label());
        }
        if (vs.size() > 3) s.append(String.format(Locale.ROOT, ", +%d more", vs.size() - 3));
        return s.toString();
    }

    /** Bytes with thousands separators. */
    static String grouped(long n) { return Units.grouped(n); }

    // ---- the warnings of the log: each beside the failure it explains (the first out-of-memory message
    // after it, else the last before), joined to the loaded module it is about by the program it
    // names, by its figures (a memory analysis), or by its shapes (a donation of a parameter's shape) ----


    static Table warnings(OomText text, List<HloModule> modules) {
        Table.Builder b = Table.builder().key("warnings_in_the_log").title("warnings in the log")
                .column("line", ColumnType.INT).column("kind", ColumnType.STRING).optionalColumn("program", ColumnType.STRING)
                .optionalColumn("module", ColumnType.STRING).optionalColumn("beside", ColumnType.INT)
                .optionalColumn("figure", ColumnType.STRING).column("says", ColumnType.STRING)
                .optionalColumn("evidence", ColumnType.STRING);
        for (LogEvent e : text.events()) {
            String[] join = join(e, modules);
            Map.Entry<String, PrintedSize> main = e.figures().isEmpty() ? null : e.figures().entrySet().iterator().next();
            PrintedSize figure = main == null ? null : main.getValue();
            Integer beside = beside(e.line(), text.messages());
            b.row((long) e.line(), e.kind(), e.program(), join[0], beside == null ? null : (long) (int) beside, figure,
                    cut(e.says()), join[1]);
        }
        b.note("beside: the out-of-memory message the warning comes before (else the last one after it)");
        b.note("figure: rematerialization's target, the donations' bytes, a memory analysis' peak");
        return withoutEmptyDetails(b.build());
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
                if (ModuleMatch.named(m, e.program()) || e.program().equals(dumpName(m))) found.add(m.handle());
            }
            if (!found.isEmpty()) why = "program name " + e.program();
        }
        if (e.kind().equals("memory-analysis")) {
            PrintedSize temp = e.figures().get("temp_size_in_bytes"), args = e.figures().get("argument_size_in_bytes");
            List<String> byFigures = new ArrayList<>();
            for (HloModule m : modules) {
                boolean t = temp != null && temp.low() == sum(m, a -> a.isTemp() && !a.threadLocal());
                boolean p = args != null && args.low() == sum(m, BufferAllocation::isParameter);
                if (t && (p || args == null)) byFigures.add(m.handle());
            }
            // by figures alone only when they single out a module: a temp of 0 bytes is every small program's
            if (found.isEmpty() && !byFigures.isEmpty() && temp.low() > 0) {
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
                            && e.shapes().contains(Shape.withoutLayout(a.parameterShape().text()))) {
                        found.add(m.handle());
                        why = "an entry parameter of the shape the donation lost";
                        break;
                    }
                }
            }
        }
        if (e.kind().equals("involuntary-remat")) {
            PartitionerWarning w = PartitionerWarning.parse(e.says());
            for (HloModule m : modules) {
                String j = w == null ? null : w.join(m);
                if (j != null) {
                    found.add(m.handle());
                    why = j;
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

    // ---- shared by the tables ----


    /** {@code t} without its optional columns that are null in every row: what a message does not print. */
    static Table withoutEmptyDetails(Table t) {
        List<Integer> keep = new ArrayList<>();
        for (int c = 0; c < t.width(); c++) {
            boolean empty = t.columns().get(c).optional();
            for (int r = 0; r < t.size() && empty; r++) empty = t.cell(r, c) == null;
            if (!empty) keep.add(c);
        }
        if (keep.size() == t.width()) return t;
        List<Column> cols = new ArrayList<>();
        for (int c : keep) cols.add(t.columns().get(c));
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < t.size(); r++) {
            List<Object> row = new ArrayList<>();
            for (int c : keep) row.add(t.cell(r, c));
            rows.add(row);
        }
        return new Table(t.title(), cols, rows, t.notes(), t.key());
    }

    /** {@code module_0008.jit__lambda}: how the dump's files name the module (handles may differ), or null. */
    static String dumpName(HloModule m) {
        int n = m.info().number();
        return n < 0 ? null : String.format(Locale.ROOT, "module_%04d.%s", n, m.info().name());
    }
}
