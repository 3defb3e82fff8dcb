package bufq.shell.sql;

import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/fleet.md runs as written: each {@code ```sh} block, in order, in bash, in a folder holding the
 * page's dump tree (four nights of two models, copied from the corpus's series) and {@code ./bufq}
 * (the checkout's launcher on the test's classes); every line of the {@code ```text} block after it
 * is in what the block printed. The export runs under {@code xargs -P}, so lines are looked for in
 * any order.
 */
class FleetRecipeTest {
    /** The page's tree: night -> model -> the corpus folder compiled that night. */
    static final String[][] TREE = {
            {"2026-11-27", "mlp", "series/mlp-b8"}, {"2026-11-27", "transformer", "series/transformer-s128"},
            {"2026-11-28", "mlp", "series/mlp-b8"}, {"2026-11-28", "transformer", "series/transformer-s128"},
            {"2026-11-29", "mlp", "series/mlp-b16"}, {"2026-11-29", "transformer", "series/transformer-s128"},
            {"2026-11-30", "mlp", "series/mlp-b16"}, {"2026-11-30", "transformer", "series/transformer-s256"}};

    record Block(int line, String script, List<String> shown) {}

    static List<Block> blocks(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
        List<Block> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).equals("```sh")) continue;
            int start = i + 1;
            StringBuilder script = new StringBuilder();
            for (i = start; !lines.get(i).equals("```"); i++) script.append(lines.get(i)).append('\n');
            int k = i + 1;
            while (k < lines.size() && lines.get(k).isBlank()) k++;
            List<String> shown = new ArrayList<>();
            if (k < lines.size() && lines.get(k).equals("```text")) {
                for (k++; !lines.get(k).equals("```"); k++) if (!lines.get(k).isBlank()) shown.add(lines.get(k).strip());
            }
            out.add(new Block(start, script.toString(), shown));
        }
        return out;
    }

    @Test
    void theRecipeRunsAsWritten(@TempDir Path work) throws Exception {
        for (String[] t : TREE) copy(Corpus.require("jax-0.10.2/" + t[2]), work.resolve("dumps").resolve(t[0]).resolve(t[1]));
        Path launcher = work.resolve("bufq");
        Files.writeString(launcher, "#!/bin/sh\nexec '" + Run.root().resolve("bufq") + "' \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<Block> blocks = blocks(Run.root().resolve("docs/fleet.md"));
        assertEquals(4, blocks.size(), "the export, the query, the guard, the database");
        for (Block b : blocks) {
            assertTrue(!b.shown().isEmpty(), "docs/fleet.md:" + b.line() + " shows what it prints");
            String out = bash(work, b.script());
            List<String> printed = out.lines().map(String::strip).toList();
            for (String s : b.shown())
                assertTrue(printed.contains(s), "docs/fleet.md:" + b.line() + ": the line\n  " + s + "\nis not in what it printed:\n" + out);
        }
    }

    private static String bash(Path dir, String script) throws IOException, InterruptedException {
        Path log = Files.createTempFile(dir, "block", ".log");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // The launcher runs the test's classes: the jar is packaged after the tests.
        pb.environment().put("BUFQ_CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().put("XDG_CONFIG_HOME", dir.resolve("config").toString());
        Process p = pb.start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the block ended");
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        Files.delete(log);
        return out;
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.toList()) Files.copy(f, to.resolve(f.getFileName().toString()));
        }
    }
}
