package bufq.shell.command;

import bufq.model.DumpPart;
import bufq.shell.api.Command;
import bufq.shell.api.CommandContext;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.session.Status;
import bufq.shell.sql.Sql;
import bufq.table.Table;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/** {@code sql SELECT ...}: DuckDB's SQL over the loaded modules' tables (bufq.shell.sql). */
final class SqlCommand implements Command {
    /** The flag that makes rows a failure: the guard's way to fail a CI job. */
    static final String FAIL_ON_ROWS = "--fail-on-rows";

    /** The session's DuckDB, made by the first statement (none at start-up). */
    private Sql sql;

    @Override public String name() { return "sql"; }

    @Override public String synopsis() { return "sql [--fail-on-rows] SELECT ..."; }

    @Override public String brief() { return "Runs DuckDB SQL over the loaded modules' tables (joins, windows, Parquet files)."; }

    @Override public String description() {
        return "sql runs a statement of DuckDB's SQL over the tables of every loaded module: modules, values,\n"
                + "allocations, instructions, steps, uses and events, with the fields 'fields' lists (the standard\n"
                + "ones), each row led by the keys dump (the module's folder), handle, module (program name), module_id\n"
                + "(XLA's number), fingerprint (of the module's files: equal for the same compilation in two runs) and\n"
                + "backend. It is for what the query language does not say: joins across modules and runs, window\n"
                + "functions, and files other runs exported (read_parquet('runs/*/modules.parquet')). The result\n"
                + "prints through bufq's formats; a column named as a byte field or ending in _bytes shows as bytes.\n"
                + "end and offset are SQL keywords: write \"end\" (or v.end). --fail-on-rows makes a result with rows a\n"
                + "failure (exit 1 with --bail): a CI guard. DuckDB runs in this process and starts with the first\n"
                + "sql of a session; the tables are read again when the loaded modules change.";
    }

    @Override public List<String> examples() {
        return List.of("sql select module, count(*) as n, sum(size) as size from values group by module order by size desc",
                "sql select a.module, a.needs_bytes, b.needs_bytes as after_bytes from modules a join modules b using (module) where a.dump < b.dump",
                "sql select * from values where \"end\" - start > 100 limit 5");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) {
        // The tables hold every field, those of the Used values section too: a batch run reads it with its load.
        return CommandPlan.text(args, Set.of(DumpPart.USED_VALUES), false, this::run);
    }

    private Status run(CommandContext ctx, List<String> words) throws CommandException, Engine.Failure, IOException {
        String text = words.isEmpty() ? "" : words.get(0).strip();
        boolean failOnRows = text.startsWith(FAIL_ON_ROWS)
                && (text.length() == FAIL_ON_ROWS.length() || Character.isWhitespace(text.charAt(FAIL_ON_ROWS.length())));
        if (failOnRows) text = text.substring(FAIL_ON_ROWS.length()).strip();
        text = CommandPlan.statement(text);
        if (text.isEmpty()) throw new CommandException("usage: " + synopsis());
        if (sql == null) sql = new Sql();
        Table t = sql.query(text, ctx.modules(), ctx.settings().tiling());
        ctx.out().print(t);
        if (!failOnRows || t.size() == 0) return Status.OK;
        ctx.out().error("sql " + FAIL_ON_ROWS + ": the query returned " + t.size() + (t.size() == 1 ? " row" : " rows"));
        return Status.ERROR;
    }
}
