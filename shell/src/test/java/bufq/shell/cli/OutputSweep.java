package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.run.Shell;
import bufq.testing.Corpus;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every command's output over the repo's fixtures and, when it is here, more of the corpus,
 * one statement at a time through one session per dump, so a failure names the statement.
 */
final class OutputSweep {
    private OutputSweep() {}

    /** The dumps swept: the example, then corpus folders ({@link Corpus#require}: the checkout's copy without the corpus). */
    static final List<String> CORPUS = List.of("jax-0.10.2/transformer-2layer", "jax-0.10.2/bf16-mlp", "jax-0.10.2/rnn-scan",
            "jax-0.10.2/cnn", "jax-0.10.2/pairs", "jax-0.10.2-proto/profile", "oom-cpu/pair", "jax-0.10.2/train/mlp-adam",
            "jax-0.10.2/remat-pairs/attention-2layer", "oom-cpu/distances", "public");

    /** The dump folder of a sweep entry: {@code NAME/dump} where the entry is a run (a dump beside its log). */
    static Path dump(Path entry) {
        return Files.isDirectory(entry.resolve("dump")) ? entry.resolve("dump") : entry;
    }

    /** Every command's statement ({@link JsonEveryCommandTest#statements}), fit with a capacity, and oom of the run's log. */
    static List<String> statements(Path entry) {
        List<String> out = new ArrayList<>();
        for (String s : JsonEveryCommandTest.statements()) {
            if (s.equals("help") || s.startsWith("format") || s.startsWith("js ") || s.startsWith("history")) continue;
            out.add(s);
        }
        out.addAll(List.of("blame by source", "blame by opcode", "fit keep outputs", "advise", "values limit 30", "allocations"));
        Path log = entry.resolve("run.log");
        if (Files.isRegularFile(log)) out.add("oom " + log);
        return out;
    }

    /**
     * Each statement's output (stdout) in {@code format}, on a terminal {@code columns} wide (0: a
     * pipe), capacity set for fit. In statement order; a statement that printed nothing maps to "".
     */
    static Map<String, String> outputs(Path entry, String format, int columns) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Env env = columns > 0 ? new Env(Map.of("COLUMNS", String.valueOf(columns), "NO_COLOR", "1"), true)
                : new Env(Map.of("NO_COLOR", "1"), false);
        Shell shell = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), env);
        Map<String, String> results = new LinkedHashMap<>();
        try {
            shell.modules().load(List.of(dump(entry)));
            shell.execute("format " + format);
            shell.execute("set capacity 16GiB");
            out.reset();
            for (String s : statements(entry)) {
                shell.execute(s);
                results.put(s, out.toString(StandardCharsets.UTF_8));
                out.reset();
            }
        } finally {
            shell.close();
        }
        return results;
    }

    /** The sweep's entries: the example, then the corpus folders that are here. */
    static List<String> entries() {
        List<String> all = new ArrayList<>(List.of("examples/jax-mlp"));
        all.addAll(CORPUS);
        return all;
    }

    /** An entry's path: the example in the checkout, else from the corpus (or its copy; skips when neither has it). */
    static Path path(String entry) {
        return entry.startsWith("examples/") ? CliTest.root().resolve(entry) : Corpus.require(entry);
    }
}
