package bufq.shell.command;

import bufq.api.Profiles;
import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.OutputSink;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Engine;
import bufq.shell.session.Status;
import bufq.shell.sql.Sql;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

final class ExportCommand implements Command {
    @Override public String name() { return "export"; }

    /** The Used values section: a profile's frames are op names and source lines. */
    boolean readsUsedValues() { return true; }

    /** One line of help: the table exports' ENTITY words and --partition are in the description. */
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("export")
            .positionalChoice("format", List.of("pprof", "perfetto", "parquet", "duckdb"), List.of())
            .positional("FILE", ArgKind.FILE)
            .positional("ENTITY", ArgKind.ENTITY).optional().repeated().hidden()
            .step("at").choice("by", "stack", "op_name", "source").flag("--force")
            .value("--partition", ArgKind.TEXT).as("KEY=VALUE").repeated().hidden();

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() {
        return "Writes pprof or Perfetto files, or all modules' tables as Parquet or DuckDB.";
    }

    @Override public String description() {
        return "export pprof FILE writes the values live at one step (default: the peak; 'at claimed_peak' is the\n"
                + "dump's own label) as a gzipped pprof profile: one sample per value, its space the bytes it\n"
                + "occupies (each byte once, as blame counts), its stack the Python stack where the dump has one\n"
                + "(.hlo.pb), else the op_name path with the source line as leaf ('by op_name' or 'by source' for\n"
                + "one of the two alone), labels value, shape, dtype, allocation and color. Open it with\n"
                + "'go tool pprof -top FILE' or 'go tool pprof -http=: FILE'; '-diff_base OLD' compares two.\n"
                + "export perfetto FILE writes the whole schedule as Chrome trace-event JSON for ui.perfetto.dev or\n"
                + "chrome://tracing, one step = one microsecond: a slice per step named by its instruction, a counter\n"
                + "of occupied bytes per colour, the peak marked, and per allocation a slice per value over its live\n"
                + "range (shape, size, offset, op_name, source in its args). It is streamed: a million values work.\n"
                + "export parquet DIR [ENTITY ...] [--partition KEY=VALUE]... [--force] writes the tables of every\n"
                + "loaded module (those 'sql' reads: modules, values, allocations, instructions, steps, uses, events\n"
                + "where there are any, and runs: the export itself) as DIR/TABLE.parquet, or only the ENTITY tables\n"
                + "named; each row is led by the keys that join across runs (dump, handle, module, module_id,\n"
                + "fingerprint, backend). --partition run=2026-12-01 writes under DIR/run=2026-12-01/ (Hive style;\n"
                + "repeat it for more keys), so a nightly job adds a folder that read_parquet('DIR/*/modules.parquet')\n"
                + "and Spark read together. export duckdb FILE [ENTITY ...] [--partition KEY=VALUE]... appends the same\n"
                + "tables to a DuckDB database (made if missing), each row with the run_id of its row in runs.\n"
                + "Modules are read one at a time, so a directory of thousands exports in bounded memory.\n"
                + "Files are written to a temporary file and renamed; an existing one is only replaced with --force.";
    }

    @Override public List<String> examples() {
        return List.of("export pprof peak.pb.gz", "export pprof step40.pb.gz at 40 by source",
                "export pprof label.pb.gz at claimed_peak --force", "export perfetto trace.json",
                "export parquet runs --partition run=2026-12-01", "export parquet tables modules values", "export duckdb fleet.duckdb");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        ParsedArgs a = GRAMMAR.parse(CommandPlan.statement(args));
        String format = a.text("format").toLowerCase(Locale.ROOT);
        // The tables of every module: each is read as it is exported, not only the current one.
        boolean tables = format.equals("parquet") || format.equals("duckdb");
        for (String other : tables ? List.of("at", "by") : List.of("ENTITY", "--partition")) {
            if (!a.has(other)) continue;
            String word = other.equals("ENTITY") ? a.text(other) : other;
            throw a.error(other, "unexpected '" + word + "'; usage: " + (tables ? TABLES_USAGE : PROFILE_USAGE),
                    tables ? List.of("--partition", "--force") : List.of("at", "by", "--force"));
        }
        if (tables && format.equals("duckdb") && a.has("--force"))
            throw a.error("--force", "export duckdb appends: it takes no '--force'; usage: " + TABLES_USAGE, List.of());
        return new CommandPlan.Simple(readsUsedValues(), !tables, false, c -> tables ? tables(c, format, a) : profile(c, format, a));
    }

    /** What pprof and Perfetto take, and what Parquet and DuckDB take, for the errors that say which. */
    private static final String PROFILE_USAGE = "export pprof|perfetto FILE [at peak|claimed_peak|STEP] [by stack|op_name|source] [--force]";
    private static final String TABLES_USAGE = "export parquet|duckdb FILE [ENTITY ...] [--partition KEY=VALUE]... [--force]";

    private Status profile(CommandContext ctx, String format, ParsedArgs a) throws CommandException, Engine.Failure, IOException {
        String file = a.text("FILE");
        String at = a.text("at");
        boolean force = a.has("--force");
        HloModule m = ctx.modules().requireFor("export", ctx.out()::info);
        if (format.equals("perfetto")) {
            if (at != null || a.has("by")) throw a.error(at != null ? "at" : "by", "export perfetto takes no 'at' or 'by': it traces every step", List.of());
            String[] wrote = new String[1];
            try {
                write(file, force, out -> wrote[0] = Profiles.perfetto(m, out));
            } catch (IllegalArgumentException e) {
                throw new CommandException(e.getMessage());   // no live ranges: nothing written
            }
            ctx.out().info("wrote " + file + ": " + wrote[0] + "; open it at https://ui.perfetto.dev (Open trace file) or chrome://tracing");
            return Status.OK;
        }
        int step = a.step("at", m, "peak");
        String[] wrote = new String[1];
        write(file, force, out -> wrote[0] = Profiles.pprof(m, step, at == null ? "peak" : at, a.text("by"), out));
        ctx.out().info("wrote " + file + ": " + wrote[0] + "; open it with 'go tool pprof -http=: " + file + "'");
        return Status.OK;
    }

    /** {@code export parquet DIR ...} and {@code export duckdb FILE ...}: every loaded module's tables (bufq.shell.sql). */
    private static Status tables(CommandContext ctx, String format, ParsedArgs a) throws CommandException, Engine.Failure {
        String target = a.text("FILE");
        List<String> entities = a.texts("ENTITY"), partitions = a.texts("--partition");
        boolean force = a.has("--force");
        ctx.modules().require();
        String line = format.equals("parquet")
                ? Sql.exportParquet(ctx.modules(), ctx.settings().tiling(), Path.of(target), entities, partitions, force)
                : Sql.exportDuckdb(ctx.modules(), ctx.settings().tiling(), Path.of(target), entities, partitions);
        ctx.out().info(line);
        return Status.OK;
    }

    interface Body {
        void write(OutputStream out) throws IOException;
    }

    /** Writes {@code file} whole or not at all, as {@code output} does. */
    static void write(String file, boolean force, Body body) throws CommandException {
        try {
            OutputSink sink = OutputSink.file(Path.of(file), force);
            boolean written = false;
            try {
                OutputStream out = new BufferedOutputStream(sink.stream(), 1 << 16);
                body.write(out);
                out.flush();
                written = true;
            } finally {
                if (!written) sink.discard();   // a failure or Ctrl-C half-way leaves no file
            }
            sink.close();
        } catch (FileAlreadyExistsException e) {
            throw new CommandException(file + " exists; add --force to replace it");
        } catch (IOException e) {
            // Ctrl-C interrupts the thread, and an interrupted thread's file channel closes itself
            // (ClosedByInterruptException, whose message is null): said as the cancel it was.
            if (Thread.currentThread().isInterrupted() || e instanceof ClosedByInterruptException) {
                throw new CommandException("cancelled (Ctrl-C); " + file + " was not written");
            }
            throw new CommandException("cannot write " + file + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        }
    }
}
