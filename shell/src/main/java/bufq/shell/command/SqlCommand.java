package bufq.shell.command;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.api.CommandContext;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.session.Status;
import bufq.shell.sql.Sql;
import bufq.shell.sql.SqlResult;
import bufq.table.Table;

import java.io.IOException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code sql SELECT ...}: DuckDB's SQL over the loaded modules' tables (bufq.shell.sql). */
final class SqlCommand implements Command, AutoCloseable {
    /** The flag that makes rows a failure: the guard's way to fail a CI job. */
    static final String FAIL_ON_ROWS = "--fail-on-rows";

    /** The session's DuckDB, made by the first statement (none at start-up). */
    private Sql sql;

    @Override public String name() { return "sql"; }

    /** Ends the session's DuckDB, deleting its folder. */
    @Override public void close() {
        if (sql != null) sql.close();
        sql = null;
    }

    private static final ArgGrammar GRAMMAR = ArgGrammar.of("sql").flag(FAIL_ON_ROWS).rest("SQL", "SELECT ...");

    @Override public ArgGrammar grammar() { return GRAMMAR; }

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
                + "failure (exit 1 with --bail): a CI guard; it goes before the SQL. DuckDB runs in this process and\n"
                + "starts with the first sql of a session; the tables are read again when the loaded modules change.\n"
                + "It runs sandboxed: only queries run (SELECT, WITH, VALUES, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN; no\n"
                + "COPY, ATTACH, SET or CREATE), no file is written, none is read but under the folders the command\n"
                + "line names (bufq --sql-allow DIR), and DuckDB's settings are locked.";
    }

    @Override public List<String> examples() {
        return List.of("sql select module, count(*) as n, sum(size) as size from values group by module order by size desc",
                "sql select a.module, a.needs_bytes, b.needs_bytes as after_bytes from modules a join modules b using (module) where a.dump < b.dump",
                "sql select * from values where \"end\" - start > 100 limit 5");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        // The tables hold every field, those of the Used values section too: a batch run reads it with its load.
        // The statement runs under the query time limit (Sql starts it once the tables are loaded).
        return CommandPlan.parsed(GRAMMAR, args, true, false, false, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, Engine.Failure, IOException {
        // Flags come before the SQL, each a word of its own.
        String text = a.text("SQL");
        boolean failOnRows = a.has(FAIL_ON_ROWS);
        // Written after the SQL, a flag is an SQL comment: the guard would be silently off.
        if (Pattern.compile("--\\s*" + FAIL_ON_ROWS.substring(2) + "\\b").matcher(text).find())
            throw new CommandException("sql: " + FAIL_ON_ROWS + " goes before the SQL (sql " + FAIL_ON_ROWS
                    + " SELECT ...); after it, it is an SQL comment and the guard would be off");
        if (sql == null) sql = new Sql();
        SqlResult r = sql.query(text, ctx.modules(), ctx.settings().tiling(), ctx.settings().sqlAllowed(), ctx.settings().timeout(),
                ctx.settings().timeoutText());
        Table t = r.table();
        ctx.out().print(t);
        if (r.cut()) ctx.out().info("warning: sql: the result has more rows than the " + t.size() + " read (at most "
                + bufq.units.Units.grouped(Sql.MAX_CELLS) + " cells are held); add a LIMIT or aggregate");
        if (!failOnRows || t.size() == 0) return Status.OK;
        ctx.out().error("sql " + FAIL_ON_ROWS + ": the query returned " + t.size() + (t.size() == 1 ? " row" : " rows"));
        return Status.ERROR;
    }
}
