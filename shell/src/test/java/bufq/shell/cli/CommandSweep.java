package bufq.shell.cli;

import bufq.shell.api.Command;
import bufq.shell.command.Commands;
import bufq.shell.repl.PlainRepl;
import bufq.shell.run.Shell;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.testing.Corpus;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every command of the registry with typical arguments, over every dump folder of the corpus (or,
 * on a clone without it, of the checkout's copy) and the shipped example, run through the real
 * entry point: {@link Bufq#run} for a statement alone, and a {@link Bufq#shell} session reading
 * statements one at a time, as piped stdin does, for a run of them.
 */
final class CommandSweep {
    private CommandSweep() {}

    /** Settings every run starts with: a capacity, so that fit and forecast fit have one to check. */
    static final List<String> PRESETS = List.of("--capacity", "16GiB");

    /**
     * A typical statement (or several) for each command of the registry, by command name; the
     * sweep fails on a command missing here. {@code DUMP} is the entry's dump folder, {@code TMP} a
     * scratch folder.
     */
    static final Map<String, List<String>> TYPICAL = typical();

    private static Map<String, List<String>> typical() {
        Map<String, List<String>> t = new LinkedHashMap<>();
        t.put("load", List.of("load DUMP"));
        t.put("modules", List.of("modules"));
        t.put("use", List.of("use 1"));
        t.put("summary", List.of("summary"));
        t.put("fields", List.of("fields values", "fields"));
        t.put("peak", List.of("peak"));
        t.put("timeline", List.of("timeline", "timeline by events"));
        t.put("map", List.of("map 0"));
        t.put("padding", List.of("padding"));
        t.put("fragmentation", List.of("fragmentation"));
        t.put("blame", List.of("blame", "blame by category", "blame by source", "blame by opcode", "blame by op_name depth 3",
                "blame by stack depth 4", "blame by path depth 2", "blame by sharding"));
        t.put("peaks", List.of("peaks"));
        t.put("why", List.of("why values where live at peak order by size desc limit 1"));
        t.put("oom", List.of("oom LOG"));
        t.put("check", List.of("check"));
        t.put("diff", List.of("diff 1 1"));
        t.put("whatif", List.of("whatif remat where live at peak and size > 1KiB", "whatif drop where size > 1MiB"));
        t.put("fit", List.of("fit", "fit keep outputs"));
        t.put("forecast", List.of("forecast at 64", "forecast fit"));
        t.put("advise", List.of("advise"));
        t.put("export", List.of("export pprof TMP/peak.pb.gz --force"));
        t.put("sql", List.of("sql select module, program, count(*) as n, sum(size) as size from values group by module, program order by module"));
        t.put("format", List.of("format"));
        t.put("set", List.of("set"));
        t.put("output", List.of("output"));
        t.put("timer", List.of("timer off"));
        t.put("history", List.of("history"));
        t.put("run", List.of("run ROOT/examples/peak-report.bq"));
        t.put("js", List.of("js bufq.module.values.length"));
        t.put("help", List.of("help", "help query"));
        t.put("clear", List.of("clear"));
        t.put("quit", List.of("quit"));
        // queries on each entity
        t.put("", List.of("values limit 30", "allocations", "instructions order by live_bytes desc limit 10",
                "steps order by occupied_bytes desc limit 5", "uses limit 10", "events limit 10",
                "values order by size desc limit 5 show id, name, size, shape, op_name, category"));
        return t;
    }

    /**
     * Commands whose output is the session's own state (what ran, what was set) or that change it
     * for what follows (oom takes the capacity its message states): run alone only, not held to
     * printing the same wherever they run.
     */
    static final List<String> SESSION = List.of("load", "use", "oom", "format", "set", "output", "timer", "history", "clear", "quit");

    /** The statements of {@link #TYPICAL} for {@code entry}, in registry order; {@code session}: those of {@link #SESSION} too. */
    static List<String> statements(Path entry, Path tmp, boolean session) {
        List<String> out = new ArrayList<>();
        Path log = entry.resolve("run.log");
        for (Map.Entry<String, List<String>> e : TYPICAL.entrySet()) {
            if (!session && SESSION.contains(e.getKey())) continue;
            for (String s : e.getValue()) {
                if (s.contains("LOG") && !Files.isRegularFile(log)) continue;
                out.add(s.replace("DUMP", dump(entry).toString()).replace("LOG", log.toString())
                        .replace("TMP", tmp.toString()).replace("ROOT", CliTest.root().toString()));
            }
        }
        return out;
    }

    /** The command names {@link #TYPICAL} lacks (a new command must say how it is swept). */
    static List<String> untyped() {
        List<String> out = new ArrayList<>();
        for (Command c : Commands.standard().all()) if (!TYPICAL.containsKey(c.name())) out.add(c.name());
        return out;
    }

    /** The dump folder of an entry: {@code NAME/dump} where the entry is a run (a dump beside its log). */
    static Path dump(Path entry) {
        return Files.isDirectory(entry.resolve("dump")) ? entry.resolve("dump") : entry;
    }

    /**
     * The swept entries: the shipped example, then each folder holding dump files (a run's
     * {@code dump/} as the run folder beside its log) of the checkout's copy of the corpus, read
     * from the corpus when it is here ({@link Corpus#require}). With {@code -Dbufq.sweepAll=true}
     * and the corpus here, every such folder of the corpus (over half an hour on two cores: the
     * big TPU modules' advise and whatif, eight runs each). Named by their path under the corpus.
     */
    static Map<String, Path> entries() throws IOException {
        Map<String, Path> out = new LinkedHashMap<>();
        out.put("examples/jax-mlp", CliTest.root().resolve("examples/jax-mlp"));
        boolean all = Boolean.getBoolean("bufq.sweepAll") && Files.isDirectory(Corpus.dir());
        Path root = all ? Corpus.dir() : Corpus.copy();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path d : s.filter(Files::isDirectory).sorted().toList()) {
                if (!holdsDump(d)) continue;
                String name = root.relativize(d.getFileName().toString().equals("dump") ? d.getParent() : d).toString();
                out.put(name, all ? root.resolve(name) : Corpus.require(name));
            }
        }
        return out;
    }

    private static boolean holdsDump(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .anyMatch(n -> n.contains("buffer-assignment") || n.contains("memory-usage-report") || n.endsWith(".hlo.pb"));
        }
    }

    /** The process surroundings: a terminal {@code columns} wide, or a pipe (0). */
    static Env env(int columns) {
        return columns > 0 ? new Env(Map.of("COLUMNS", String.valueOf(columns), "NO_COLOR", "1"), true)
                : new Env(Map.of("NO_COLOR", "1"), false);
    }

    /** What one run printed: stdout and stderr. */
    record Output(String out, String err) {
        String both() { return out + err; }
    }

    /** {@code statement} alone: {@code bufq --no-init --format F --capacity 16GiB -c STATEMENT DUMP}. */
    static Output alone(Path entry, String format, int columns, String statement) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("--no-init", "--format", format));
        args.addAll(PRESETS);
        // a batch run over several modules gives a command on one module the one that needs the
        // most bytes, made current for what follows (Modules.requireFor): the module is named here
        args.addAll(List.of("--module", "1", "-c", statement, dump(entry).toString()));
        new Bufq(env(columns), DefaultEngine::new, PlainRepl::new).run(args.toArray(String[]::new),
                new ByteArrayInputStream(new byte[0]), print(out), print(err));
        return new Output(text(out), text(err));
    }

    /**
     * Each of {@code statements}, run in this order in one session (as piped stdin runs them: the
     * parts of a dump read on first need), {@code passes} times over: each pass's outputs in
     * statement order.
     */
    static List<List<Output>> session(Path entry, String format, int columns, List<String> statements, int passes) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Shell shell = Bufq.shell(new DefaultEngine(), print(out), print(err), env(columns));
        List<List<Output>> results = new ArrayList<>();
        try {
            shell.modules().load(List.of(dump(entry)));
            shell.modules().batch();
            shell.execute("use 1");
            shell.execute("format " + format);
            shell.execute("set capacity 16GiB");
            out.reset();
            err.reset();
            for (int p = 0; p < passes; p++) {
                List<Output> pass = new ArrayList<>();
                for (String s : statements) {
                    shell.execute(s);
                    pass.add(new Output(text(out), text(err)));
                    out.reset();
                    err.reset();
                }
                results.add(pass);
            }
        } finally {
            shell.close();
        }
        return results;
    }

    private static PrintStream print(ByteArrayOutputStream b) { return new PrintStream(b, true, StandardCharsets.UTF_8); }

    private static String text(ByteArrayOutputStream b) { return b.toString(StandardCharsets.UTF_8); }
}
