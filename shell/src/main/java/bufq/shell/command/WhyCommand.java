package bufq.shell.command;

import bufq.api.Holders;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgumentError;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.eval.EvalContext;
import bufq.lang.Diagnostic;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Engine;
import bufq.shell.statement.StatementKind;
import bufq.shell.session.Status;
import bufq.table.Output;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** {@code why VALUE}: what keeps a value alive; VALUE is an id, a name or a values query. */
final class WhyCommand implements Command {
    @Override public String name() { return "why"; }
    /** The Used values section: the values' uses and the instructions' lines. */
    boolean readsUsedValues() { return true; }

    private static final ArgGrammar GRAMMAR = ArgGrammar.of("why").rest("VALUE", "ID|NAME|QUERY", ArgKind.VALUE);

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "Why a value is live: its uses, why its range ends there, idle time, the peak."; }

    @Override public String description() {
        return "Explains values, each in parts: what it is (shape, sizes, allocation, offset, colour); where it is\n"
                + "born (step, opcode, op_name, source, then one row per frame of its Python stack where a .hlo.pb\n"
                + "dump has one); its positions and uses in schedule order; why its live range\n"
                + "ends where it ends (its last use, an output of the program, an entry parameter that is not donated,\n"
                + "a loop's input, carry or parameter, no uses listed); its idle stretches, the runs of steps in which\n"
                + "it is live but nothing reads it; and at the peak: whether it is live, the bytes it holds then and\n"
                + "their share, and what ending it at its last use before the peak would save (the peak recomputed).\n"
                + "The value is an id (42), a name (fusion.3, or fusion.3{1} for\n"
                + "one tuple element; a bare name of a tuple-shaped instruction takes all its elements), or a query\n"
                + "on values that selects them.";
    }

    @Override public List<String> examples() {
        return List.of("why 42", "why fusion.3", "why fusion.3{1}", "why values where live at peak order by size desc limit 3");
    }

    /**
     * The rest of the line as typed (a query keeps its quotes), a query compiled here once. A query
     * on values naming fields not known now uses scripts: the init script may define them.
     */
    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        ParsedArgs a = GRAMMAR.parse(args.strip());
        String text = a.text("VALUE");
        Engine.Compiled query = StatementKind.startsQuery(text, ctx.engine().entities()) ? ctx.engine().compile(text) : null;
        return new CommandPlan() {
            @Override public boolean readsUsedValues() { return WhyCommand.this.readsUsedValues(); }
            /** A query's conditions run under the query time limit. */
            @Override public boolean evaluatesConditions() { return true; }
            @Override public boolean usesScripts() {
                return query != null && query.entity().equals("values") && !query.unresolved().isEmpty();
            }
            @Override public Status run(CommandContext c) throws CommandException, Engine.Failure, IOException { return WhyCommand.this.run(c, a, query); }
        };
    }

    private Status run(CommandContext ctx, ParsedArgs a, Engine.Compiled query) throws CommandException, Engine.Failure, IOException {
        HloModule m = ctx.modules().requireFor("why", ctx.out()::info);
        // a query on values that does not compile: its caret under the statement, as an argument's
        Diagnostic problem = query == null ? null : onValues(query.current()).problem();
        if (problem != null) throw ArgumentError.within(a.word("VALUE").start(), problem);
        List<HloValue> values;
        try {
            values = query != null ? select(ctx, m, query.current()) : select(m, a.text("VALUE"));
        } catch (CommandException e) {
            if (query != null) throw e;
            throw a.error("VALUE", e.getMessage(), query == null && !a.text("VALUE").matches("[0-9]+") ? names(m) : List.of());
        }
        if (values.isEmpty()) {
            ctx.out().info("no values selected");
            return Status.OK;
        }
        ctx.out().print(Holders.why(m, values));
        return Status.OK;
    }

    /** The values {@code query}, a query on values, selects. */
    private static List<HloValue> select(CommandContext ctx, HloModule m, Engine.Compiled query) throws CommandException {
        onValues(query);
        try {
            List<HloValue> out = new ArrayList<>();
            for (Object o : query.selection().rows(new EvalContext(m, ctx.settings().tiling()))) out.add((HloValue) o);
            return out;
        } catch (Engine.Failure e) {
            throw new CommandException(e.getMessage().stripTrailing());
        } catch (QueryException e) {
            throw new CommandException(e.diagnostic().render(query.text()).stripTrailing());
        }
    }

    /** {@code query}, when it is a query on values. */
    private static Engine.Compiled onValues(Engine.Compiled query) throws CommandException {
        String entity = query.entity().isEmpty() ? StatementKind.firstWord(query.text()) : query.entity();
        if (!entity.equalsIgnoreCase("values")) throw new CommandException("why takes a query on values, not on " + entity);
        return query;
    }

    /** The values {@code text} names: an id, or a name with or without its index. */
    static List<HloValue> select(HloModule m, String text) throws CommandException {
        if (text.matches("[0-9]+")) {
            HloValue v = text.length() <= 18 ? m.value(Long.parseLong(text)) : null;   // longer: past any id
            if (v == null) throw new CommandException("no value with id " + text + " in " + m.handle());
            return List.of(v);
        }
        String name = text.startsWith("%") ? text.substring(1) : text;
        if (name.endsWith("}")) {
            HloValue v = m.valueByKey(name);
            if (v == null) throw new CommandException("no value " + name + " in " + m.handle());
            return List.of(v);
        }
        List<HloValue> named = new ArrayList<>(m.valuesNamed(name));
        if (named.isEmpty()) throw new CommandException("no value named " + name + " in " + m.handle()
                + "; expected an id, a name such as fusion.3 or fusion.3{1}, or a query on values");
        named.sort(WhyCommand::byTupleIndex);   // the tuple {} first, then {0}, {1}, ..., {1,0}
        return named;
    }

    /** The names of {@code m}'s values, for a "did you mean". */
    private static Set<String> names(HloModule m) {
        Set<String> out = new HashSet<>();
        for (HloValue v : m.values()) out.add(v.name());
        return out;
    }

    /** Tuple indices in tree order: {@code {}} before {@code {0}} before {@code {0,1}} before {@code {1}}; numbers compared as numbers. */
    static int byTupleIndex(HloValue a, HloValue b) {
        long[] x = indexPath(a.index()), y = indexPath(b.index());
        for (int i = 0; i < Math.min(x.length, y.length); i++) if (x[i] != y[i]) return Long.compare(x[i], y[i]);
        return Integer.compare(x.length, y.length);
    }

    private static long[] indexPath(String index) {
        String inner = index == null ? "" : index.replaceAll("[{}\\s]", "");
        if (inner.isEmpty()) return new long[0];
        String[] parts = inner.split(",");
        long[] out = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Long.parseLong(parts[i]);
            } catch (NumberFormatException e) {
                out[i] = Long.MAX_VALUE;
            }
        }
        return out;
    }
}
