package bufq.shell.command;

import bufq.model.HloModule;
import bufq.api.OomLog;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;
import bufq.shell.statement.Paste;
import bufq.shell.session.UserPaths;
import bufq.units.Units;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code oom FILE|-}: an out-of-memory message joined to the loaded modules. */
final class OomCommand implements Command {
    @Override public String name() { return "oom"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("oom").rest("FILE", "FILE|-", ArgKind.FILE_REST);

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "Joins an out-of-memory message to the loaded modules and their values."; }

    @Override public String description() {
        return "Reads the out-of-memory messages in FILE (or pasted after 'oom -': an empty line or Ctrl-D ends the\n"
                + "paste; in a batch run 'oom -' reads stdin), from every XLA family: XLA:CPU, GPU buffer assignment\n"
                + "(stats, Peak buffers), stream executor and BFC (with the xla.execute/xla.buffer annotations), TPU\n"
                + "compile time (E1000, Largest program allocations, vmem), TPU #allocationK, TPU run time (E0100,\n"
                + "E0101) and SparseCore; log prefixes, tracebacks and re-wrapped lines are taken as they come. Prints\n"
                + "what each message says (sizes exact where printed exactly, else with the byte counts that print\n"
                + "that way), which loaded module and allocation it is about (ranked, with the evidence: program\n"
                + "name, an allocation of exactly the requested size, the listed buffers), each listed buffer's\n"
                + "values with how they matched (allocation index, instruction name, size+shape+opcode, size only,\n"
                + "none), and the message's totals against the dump's. Each row ends with a line to run next.\n"
                + "The module the first message names becomes current (said on stderr), so advise, peak and why are\n"
                + "about it; of candidates with equal evidence, a program that is not an initialiser (jit_init) and\n"
                + "the one compiled later rank first.\n"
                + "One failure printed several times (glog and the exception, BFC and XLA) is one row. The log's warnings\n"
                + "around it (rematerialization, unusable donations, recompilations, memory_analysis figures, BFC's\n"
                + "'not a failure') are listed beside it, joined to their modules; a log with only those exits 0.\n"
                + "Reads at most 128 MiB and 1,000 distinct messages (says what it skipped); Ctrl-C stops it.\n"
                + "Text with neither is an error. Also: bufq --oom FILE DUMP. Scripts: bufq.oom(text).";
    }

    @Override public List<String> examples() { return List.of("oom err.log", "oom -"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        // the rest of the line as typed. Modules are read as the join needs them, all of them: not the current module's parts.
        return CommandPlan.parsed(GRAMMAR, args, false, false, false, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException, Engine.Failure, IOException {
        String arg = unquote(args.text("FILE").strip());
        if (arg.isEmpty()) throw args.error("FILE", "a file name is expected, not an empty one; usage: " + synopsis(), List.of());
        String source = arg.equals("-") ? "the paste" : arg;
        byte[] bytes;
        try {
            bytes = arg.equals("-") ? paste(ctx) : read(Path.of(arg));
        } catch (Paste.Cancelled e) {
            ctx.out().info("paste cancelled (Ctrl-C): nothing read");
            return Status.OK;
        }
        // named by its file's name in what fit and advise print: "message 1 of run.log"
        String name = arg.equals("-") ? source : String.valueOf(Path.of(arg).getFileName());
        OomLog log = OomLog.read(bytes, name);
        if (bytes.length > OomLog.MAX_BYTES)
            ctx.out().info("read the first " + Units.grouped(OomLog.MAX_BYTES) + " bytes (" + (OomLog.MAX_BYTES >> 20)
                    + " MiB) of " + source + ": the rest was not read");
        if (log.messages() == 0 && log.events() == 0)
            throw new CommandException("no out-of-memory message in " + source + " (" + log.lines() + " line"
                    + (log.lines() == 1 ? "" : "s") + " read)");
        if (log.messages() == 0)
            ctx.out().info("no out-of-memory message in " + source + "; " + log.events() + " warning"
                    + (log.events() == 1 ? "" : "s") + " of the log that bear on memory");
        List<HloModule> modules = new ArrayList<>();
        ctx.modules().forEachModule(modules::add);
        ctx.out().print(log.report(modules));
        // A capacity the messages state is taken unless the user set one, over a device's table figure, and the user is told.
        OomLog.Adopted adopted = log.adopt(ctx.settings().capacitySaid());
        if (adopted != null) {
            ctx.settings().adoptCapacity(adopted.said());
            ctx.out().info(adopted.note());
        }
        ctx.modules().setOom(log);
        // A failing program that fits alone failed for what else was held: 'fit' works out what.
        String alone;
        try {
            alone = log.fitsAlone(modules, ctx.settings().capacitySaid());
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
        if (alone != null) ctx.out().info(alone);
        useNamed(ctx, log.named(modules));
        return Status.OK;
    }

    /** The module the first message names becomes current, so the next advise, peak or why is about it. */
    private static void useNamed(CommandContext ctx, OomLog.Named named) throws CommandException, Engine.Failure {
        if (named == null) return;
        HloModule current = ctx.modules().current();
        if (current == null || !current.handle().equals(named.handle())) {
            ctx.modules().point(named.handle());
            ctx.out().info("using " + named.handle() + " (named by message " + named.message() + "; 'use' picks another)");
        }
    }

    private static byte[] paste(CommandContext ctx) throws CommandException, IOException {
        String s = ctx.session().paste().read();
        if (s == null) throw new CommandException("nothing to paste from here: give a file (oom FILE)");
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The file's bytes, up to one more than {@link OomLog#MAX_BYTES} (so a longer file is known); a clear one-line error when it cannot be read. */
    static byte[] read(Path file) throws CommandException {
        try {
            if (Files.isDirectory(file)) throw new CommandException("cannot read " + file + ": a directory; expected a file holding the error message");
            if (Files.exists(file) && !Files.isRegularFile(file))
                throw new CommandException("cannot read " + file + ": not a regular file; expected a file holding the error message");
            try (InputStream in = Files.newInputStream(file)) {
                return in.readNBytes(OomLog.MAX_BYTES + 1);
            }
        } catch (NoSuchFileException e) {
            throw new CommandException("cannot read " + file + ": no such file");
        } catch (IOException e) {
            throw new CommandException("cannot read " + file + ": " + UserPaths.message(e));
        }
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && (s.startsWith("\"") && s.endsWith("\"") || s.startsWith("'") && s.endsWith("'")))
            return s.substring(1, s.length() - 1);
        return s;
    }
}
