package bufq.shell.command;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;
import bufq.lang.NearNames;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

final class FieldsCommand implements Command {
    private static final String VALUES_FILE = "values";

    @Override public String name() { return "fields"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("fields").positional("ENTITY", ArgKind.ENTITY).optional();

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() { return "Lists the fields of an entity (or of all) with their types."; }

    @Override public String description() {
        return "Lists the fields a query can filter, show and sort on, with their types: of one entity, or of all. "
                + "The reads column marks the fields that come from the Used values section (the values file of a "
                + "four-file set): the first statement that names one reads that section, once.";
    }

    @Override public List<String> examples() { return List.of("fields values", "fields"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        // uses scripts: lists the fields the init script may add
        return CommandPlan.parsed(GRAMMAR, args, false, true, true, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, IOException {
        List<String> args = a.texts("ENTITY");
        Engine e = ctx.engine();
        List<String> entities = args.isEmpty() ? e.entities() : List.of(args.get(0));
        if (!args.isEmpty() && !e.entities().contains(args.get(0)))
            throw a.error("ENTITY", "unknown entity '" + args.get(0) + "'"
                    + (NearNames.near(args.get(0), e.entities()).isEmpty() ? " (entities: " + String.join(", ", e.entities()) + ")" : ""), e.entities());
        Table.Builder b = Table.builder().key("fields");
        if (args.isEmpty()) b.column("entity", ColumnType.STRING);
        b.column("field", ColumnType.STRING).column("type", ColumnType.STRING).column("reads", ColumnType.STRING)
                .column("doc", ColumnType.STRING);
        boolean anyReads = false;
        for (String entity : entities) {
            for (Engine.Field f : e.fields(entity)) {
                String type = f.type().name().toLowerCase(Locale.ROOT);
                String reads = f.needsValues() ? VALUES_FILE : "";
                anyReads |= f.needsValues();
                if (args.isEmpty()) b.row(entity, f.name(), type, reads, f.doc());
                else b.row(f.name(), type, reads, f.doc());
            }
        }
        if (anyReads) {
            b.note("reads: '" + VALUES_FILE + "' marks the fields that come from the Used values section (a four-file"
                    + " set's -buffer-assignment-values.txt, often two thirds of the dump), read once, by the first"
                    + " statement that needs it; the others need only the allocations and live ranges");
        }
        ctx.out().print(b.build());
        return Status.OK;
    }
}
