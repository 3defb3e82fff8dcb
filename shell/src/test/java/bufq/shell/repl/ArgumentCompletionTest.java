package bufq.shell.repl;

import bufq.fit.HeldArray;
import bufq.fit.Program;
import bufq.shell.session.Shell;
import bufq.shell.session.Status;
import org.jline.reader.Candidate;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Issue 42: Tab after settings that take a value, after fit and its keep/drop lists, and paths after oom. */
class ArgumentCompletionTest {
    @TempDir Path tmp;
    Shell shell;
    ReplParser parser;
    ReplCompleter completer;
    LineReader reader;

    @BeforeEach
    void setUp() throws IOException {
        Transcript t = new Transcript(tmp);
        shell = t.open(InputStream.nullInputStream());
        parser = new ReplParser(() -> shell.engine().entities(), code -> shell.scripts().incomplete(code));
        completer = new ReplCompleter(shell, () -> shell.engine().catalog(), parser);
        reader = LineReaderBuilder.builder().terminal(t.terminal).parser(parser).build();
    }

    /** Candidates for the cursor at the end of {@code line}, prefix-filtered as JLine shows them. */
    List<String> at(String line) {
        ReplParser.ReplLine l = parser.split(line, line.length());
        List<Candidate> cs = new ArrayList<>();
        completer.complete(reader, l, cs);
        String prefix = l.word().substring(0, l.wordCursor());
        return ReplCompleter.values(cs).stream().filter(v -> v.startsWith(prefix)).toList();
    }

    @Test
    void settingValuesAreOfferedAndEachIsTakenBySet() {
        assertTrue(at("set device ").containsAll(List.of("none", "v4", "v5e", "v5p", "h100")), at("set device ").toString());
        assertEquals(List.of("v5e", "v5p"), at("set device v5"));
        List<String> capacities = at("set capacity ");
        assertTrue(capacities.containsAll(List.of("none", "16GiB", "80GB")), capacities.toString());
        assertTrue(at("set reserved ").contains("0"), at("set reserved ").toString());
        assertTrue(at("set maxwidth ").contains("0"), at("set maxwidth ").toString());
        assertEquals(List.of("auto", "on", "off"), at("set color "));
        assertTrue(at("set format ").containsAll(List.of("table", "csv", "json", "ndjson")), at("set format ").toString());
        assertEquals(Status.OK, shell.execute("set format ndjson"));
        assertEquals("ndjson", shell.printer().format().name());
        shell.execute("format table");
        for (String s : List.of("device", "capacity", "reserved", "maxrows", "maxwidth", "timeout", "threshold", "color")) {
            for (String v : at("set " + s + " ")) assertEquals(Status.OK, shell.execute("set " + s + " " + v), "set " + s + " " + v);
        }
    }

    @Test
    void fitOffersProgramsThenArraysAfterKeepAndDrop() {
        String handle = shell.modules().set().entries().get(0).handle();
        List<String> first = at("fit ");
        assertTrue(first.containsAll(List.of(handle, "where", "keep", "drop")), first.toString());
        List<String> drop = at("fit drop ");
        assertTrue(drop.containsAll(List.of("all", "none", "parameters", "outputs", handle, handle + ":outputs")), drop.toString());
        List<HeldArray> arrays = Program.of(shell.current()).arrays();
        assertFalse(arrays.isEmpty());
        assertTrue(drop.contains(arrays.get(0).name()), drop.toString());
        assertTrue(at("fit keep outputs, ").contains("parameters"), at("fit keep outputs, ").toString());
        assertTrue(at("fit keep outputs drop ").contains(arrays.get(0).name()));
        assertFalse(at("fit keep ").contains("where"), at("fit keep ").toString());
    }

    @Test
    void oomCompletesPaths() throws IOException {
        Files.writeString(tmp.resolve("err.log"), "RESOURCE_EXHAUSTED\n");
        assertEquals(List.of(tmp + "/err.log"), at("oom " + tmp + "/er"));
        assertEquals(List.of(tmp + "/err.log"), at("load " + tmp + "/er"));
    }
}
