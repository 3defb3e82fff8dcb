package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * No command's table prints a {@code null} cell: a cell with nothing in it is empty, and a figure
 * that is not known says why in a note. And a statement prints the same wherever it runs.
 */
class NoNullCellsTest {
    @TestFactory
    Stream<DynamicTest> everyCommandsTableOnTheCorpus() {
        return OutputSweep.entries().stream().map(e -> DynamicTest.dynamicTest(e, () -> {
            for (Map.Entry<String, String> t : OutputSweep.outputs(OutputSweep.path(e), "table", 0).entrySet()) nullCells(t.getKey(), t.getValue());
        }));
    }

    /** Fails on a row of a table (between its dashed rule and its row count) with a cell reading null. */
    static void nullCells(String statement, String text) {
        boolean rows = false;
        for (String line : text.split("\n")) {
            if (line.matches("-+( +-+)*")) { rows = true; continue; }
            if (line.matches("\\(\\d+ rows?\\)")) { rows = false; continue; }
            if (!rows || line.startsWith("    ")) continue;
            for (String cell : line.strip().split(" {2,}"))
                if (cell.equals("null")) fail("a null cell in the output of '" + statement + "':\n" + line + "\n\n" + text);
        }
    }

    @Test
    void modulesPrintsTheSameBeforeAndAfterAStatementThatReadOpNames() {
        String dir = Corpus.require("jax-0.10.2/train/mlp-adam").toString();
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of("-c", "modules", "-c", "blame by category", "-c", "modules", dir), "");
        String first = r.out().substring(0, r.out().indexOf("bytes occupied at peak"));
        String last = r.out().substring(r.out().lastIndexOf("#  handle"));
        assertEquals(first.strip(), last.strip(), r.out());
        nullCells("modules", first);
    }
}
