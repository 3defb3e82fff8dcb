package bufq.testing;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checkout's copy of part of the corpus ({@link Corpus#copy()}) is the corpus: every file is
 * byte for byte its original, so a test that reads the copy on a clone tests what it tests on the
 * corpus in CI; and it stays small.
 */
class CorpusCopyTest {
    static List<Path> files() throws IOException {
        try (Stream<Path> s = Files.walk(Corpus.copy())) {
            return s.filter(Files::isRegularFile).filter(p -> !p.equals(Corpus.copy().resolve("README.md"))).sorted().toList();
        }
    }

    @Test
    void everyFileIsItsOriginal() throws IOException {
        Path corpus = Corpus.require(Corpus.dir());
        List<String> differ = new ArrayList<>();
        List<Path> files = files();
        for (Path copied : files) {
            Path original = corpus.resolve(Corpus.copy().relativize(copied).toString());
            if (!Files.isRegularFile(original)) differ.add(original + " is missing");
            else if (!Arrays.equals(Files.readAllBytes(original), Files.readAllBytes(copied))) differ.add(copied + " differs from " + original);
        }
        assertTrue(files.size() > 50, "the copy's files: " + files.size());
        assertEquals(List.of(), differ);
    }

    /**
     * The folders {@link Corpus#WHOLE} names hold all of their original, every file and folder, so a
     * test that reads only them reads on a clone what it reads with the corpus (and CI runs it once).
     */
    @Test
    void theWholeFoldersHoldAllOfTheirOriginal() throws IOException {
        Path corpus = Corpus.require(Corpus.dir());
        for (String w : Corpus.WHOLE) {
            Path copied = Corpus.copy().resolve(w);
            assertTrue(Files.isDirectory(copied), "the copy holds " + w);
            List<String> original = tree(corpus.resolve(w)), copy = tree(copied);
            assertEquals(List.of(), original.stream().filter(f -> !copy.contains(f)).toList(), w + ": of the corpus's, not in the copy");
            assertEquals(original, copy, w + ": files and folders of the corpus's and of the copy's");
        }
    }

    private static List<String> tree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }

    /** A few MB at most, no file over 1 MB, and its README names every folder it copies. */
    @Test
    void itStaysSmallAndSaysWhereEachPartComesFrom() throws IOException {
        long total = 0;
        for (Path p : files()) {
            long size = Files.size(p);
            assertTrue(size < 1 << 20, p + ": " + size + " bytes");
            total += size;
        }
        assertTrue(total < 3 << 20, "the copy holds " + total + " bytes");
        String readme = Files.readString(Corpus.copy().resolve("README.md"));
        List<String> unnamed = new ArrayList<>();
        for (Path p : files()) {
            Path rel = Corpus.copy().relativize(p);
            String folder = rel.getNameCount() > 2 ? rel.subpath(0, 2).toString() : rel.toString();
            if (folder.startsWith("public/")) folder = rel.getFileName().toString().replaceAll("-(buffer-assignment|memory-usage-report)\\.txt$", "").replaceAll(".*(module_\\d+).*", "$1");
            if (folder.startsWith("jax-0.10.2/pairs")) folder = "jax-0.10.2/pairs/";
            if (!readme.contains(folder)) unnamed.add(folder);
        }
        assertEquals(List.of(), unnamed.stream().distinct().toList(), "folders the README does not name");
    }
}
