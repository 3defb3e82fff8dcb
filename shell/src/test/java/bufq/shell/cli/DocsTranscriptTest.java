package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README and every page of {@code docs/} show what bufq prints: each {@code $ ./bufq ...} line of
 * a code block is run (paths as the page spells them, from the repository's root) and every line
 * shown under it must appear in its output, in order; {@code ...} stands for lines left out. Each
 * runs as written from the checkout: it exits 0 (or the status its line states) and prints no error
 * unless the page shows one; the files it writes go to a scratch folder. A transcript on files the
 * repository does not hold (a user's {@code profile.xplane.pb}) or that pipes into another program is
 * not run, nor an interactive session (other tests type those); one on the corpus skips without it.
 */
class DocsTranscriptTest {
    record Transcript(Path page, int line, List<String> words, List<String> shown) {
        String name() { return CliTest.root().relativize(page) + ":" + line; }
    }

    static List<Path> pages() throws IOException {
        Path root = CliTest.root();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> s = Files.list(root.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** The {@code $ ./bufq} transcripts of one page's code blocks. */
    static List<Transcript> transcripts(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
        List<Transcript> out = new ArrayList<>();
        boolean inBlock = false;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("```")) { inBlock = !inBlock; continue; }
            if (!inBlock || !l.startsWith("$ ./bufq ")) continue;
            List<String> shown = new ArrayList<>();
            int k = i + 1;
            for (; k < lines.size() && !lines.get(k).startsWith("```") && !lines.get(k).startsWith("$ "); k++) {
                String s = lines.get(k).strip();
                if (!s.isEmpty() && !s.equals("...")) shown.add(s);
            }
            List<String> words = words(l.substring("$ ./bufq ".length()));
            // An interactive session (prompts in the output) is ReadmeSessionTest's and ReadmeWhyTest's.
            boolean interactive = shown.stream().anyMatch(s -> s.startsWith("bufq("));
            if (words != null && !interactive) out.add(new Transcript(page, i + 1, words, shown));
            i = k - 1;
        }
        return out;
    }

    /** A command line's words as a POSIX shell splits them, or null for one this test does not run. */
    static List<String> words(String line) {
        int hash = line.indexOf("  #");
        if (hash >= 0) line = line.substring(0, hash);
        List<String> words = new ArrayList<>();
        StringBuilder w = null;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'' || c == '"') {
                int end = line.indexOf(c, i + 1);
                if (end < 0) return null;
                if (w == null) w = new StringBuilder();
                w.append(line, i + 1, end);
                i = end;
            } else if (c == ' ') {
                if (w != null) words.add(w.toString());
                w = null;
            } else if ("|><;&$*`".indexOf(c) >= 0) {
                return null;   // pipes, redirections, globs: not a plain run
            } else {
                if (w == null) w = new StringBuilder();
                w.append(c);
            }
        }
        if (w != null) words.add(w.toString());
        return words;
    }

    /** As {@link #resolved(List, Path)} for a page's transcripts that write no file. */
    static List<String> resolved(List<String> words) {
        return resolved(words, null);
    }

    /**
     * The words with each path (or path inside a statement) that exists under the root made absolute;
     * null when one does not. A file a statement writes ({@code export pprof FILE}, {@code output FILE},
     * {@code --svg FILE}) goes to {@code scratch} instead; with no scratch such a transcript is not run.
     */
    static List<String> resolved(List<String> words, Path scratch) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (w.startsWith("-")) { out.add(w); continue; }
            boolean statement = i > 0 && words.get(i - 1).equals("-c");
            if (statement) {
                String[] tokens = w.split(" ", -1);
                StringBuilder b = new StringBuilder();
                for (int k = 0; k < tokens.length; k++) {
                    String t = tokens[k];
                    if (b.length() > 0) b.append(' ');
                    if (writes(tokens, k)) {
                        if (scratch == null) return null;
                        b.append(scratch.resolve(t));
                        continue;
                    }
                    Path file = t.contains("/") ? file(t) : null;
                    b.append(file != null && Files.exists(file) ? file.toString() : t);
                }
                out.add(b.toString());
            } else if (i > 0 && (words.get(i - 1).equals("--format") || words.get(i - 1).startsWith("--") && !words.get(i - 1).equals("--bail"))) {
                // An option's value: a file (--oom FILE) where it names one, else as it is (--capacity 16GiB).
                Path file = w.contains("/") ? file(w) : null;
                out.add(file != null && Files.exists(file) ? file.toString() : w);
            } else {
                Path file = file(w);
                if (!Files.exists(file)) return null;
                out.add(file.toString());
            }
        }
        return out;
    }

    /** Whether token {@code k} of a statement is a file it writes: export's, output's, or after --svg/--html. */
    static boolean writes(String[] tokens, int k) {
        if (k == 0) return false;
        String before = tokens[k - 1];
        return k == 2 && tokens[0].equals("export") || k == 1 && tokens[0].equals("output")
                || before.equals("--svg") || before.equals("--html");
    }

    /** A path as a page spells it: from the repository's root, the corpus's through {@link Corpus} (its copy, or a skip). */
    static Path file(String spelled) {
        if (spelled.startsWith(Corpus.RELATIVE + "/")) return Corpus.require(spelled.substring(Corpus.RELATIVE.length() + 1));
        return CliTest.root().resolve(spelled).normalize();
    }

    @TestFactory
    Stream<DynamicTest> everyTranscriptShowsWhatBufqPrints() throws IOException {
        List<Transcript> all = new ArrayList<>();
        for (Path p : pages()) all.addAll(transcripts(p));
        assertTrue(all.size() >= 10, "transcripts found: " + all.size());
        return all.stream().map(t -> DynamicTest.dynamicTest(t.name(), () -> {
            Path scratch = Files.createTempDirectory("bufq-docs");
            List<String> args = resolved(t.words(), scratch);
            if (args == null) return;   // a file the repository does not hold
            CliTest.Result r;
            try {
                r = CliTest.run(DefaultEngine::new, Map.of(), args, "");
            } finally {
                try (Stream<Path> files = Files.list(scratch)) {
                    for (Path f : files.toList()) Files.delete(f);
                }
                Files.delete(scratch);
            }
            // as written from the checkout: it succeeds, and says no error, unless the page shows one
            // a page showing a diagnostic (an error line, or a caret under the query) shows a failure: exit 1
            boolean showsError = t.shown().stream().anyMatch(l -> l.startsWith("error:") || l.matches("\\^+"));
            int expected = expectedExit(t, showsError ? 1 : 0);
            assertEquals(expected, r.code(), t.name() + " exits " + r.code() + ":\n" + r.out() + r.err());
            if (!showsError) assertFalse(r.out().contains("error:") || r.err().contains("error:"), t.name() + ":\n" + r.out() + r.err());
            List<String> out = lines(asSpelled(r.out(), scratch)), err = lines(asSpelled(r.err(), scratch));
            int o = 0, e = 0;
            for (String shown : t.shown()) {
                int fo = find(out, o, shown);
                if (fo >= 0) { o = fo + 1; continue; }
                int fe = find(err, e, shown);
                assertTrue(fe >= 0, t.name() + ": the line\n  " + shown + "\nis not in what bufq prints (in order):\n" + r.out() + r.err());
                e = fe + 1;
            }
        }));
    }

    /** The README is a tour: what bufq is, set-up, a session and a glance at each feature; the rest is in docs/. */
    @Test
    void theReadmeStaysATourOfAtMost250Lines() throws IOException {
        int lines = Files.readAllLines(CliTest.root().resolve("README.md")).size();
        assertTrue(lines <= 250, "README.md has " + lines + " lines: move the detail to docs/");
    }

    @Test
    void theReadmesTranscriptsRunOnTheRepositoryOrTheCorpus() throws IOException {
        List<Transcript> readme = transcripts(CliTest.root().resolve("README.md"));
        assertTrue(readme.size() >= 4, "README transcripts: " + readme.size());
        // Every one names files a clone (with the corpus beside it) has: none is passed over silently.
        for (Transcript t : readme) {
            for (String w : t.words()) if (w.startsWith(Corpus.RELATIVE + "/")) file(w);
            assertEquals(t.words().size(), resolved(t.words()).size(), t.name());
        }
    }

    /** The exit status a transcript's line states ({@code # exit status 1: ...}), else {@code otherwise}. */
    static int expectedExit(Transcript t, int otherwise) throws IOException {
        String line = Files.readAllLines(t.page()).get(t.line() - 1);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("exit (?:status|code) (\\d)").matcher(line);
        return m.find() ? Integer.parseInt(m.group(1)) : otherwise;
    }

    /** Output with the paths the test made absolute spelled as the page spells them (the corpus's relative path, step.json). */
    static String asSpelled(String text, Path scratch) {
        // on a clone without the corpus the checkout's copy stands in for it, at the same relative paths
        return text.replace(scratch + "/", "").replace(Corpus.dir().toString(), Corpus.RELATIVE)
                .replace(Corpus.copy().toString(), Corpus.RELATIVE).replace(CliTest.root() + "/", "");
    }

    private static List<String> lines(String text) {
        return text.lines().map(String::strip).toList();
    }

    private static int find(List<String> lines, int from, String line) {
        for (int i = from; i < lines.size(); i++) if (lines.get(i).equals(line)) return i;
        return -1;
    }
}
