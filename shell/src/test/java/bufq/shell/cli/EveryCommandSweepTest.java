package bufq.shell.cli;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every command of the registry ({@link CommandSweep}) on every dump folder, held to what a reader
 * of a terminal needs, whatever the wording: at 80 columns no line is wider and no cut text goes
 * without a way to see it whole; no cell reads {@code null} in any format; and a statement prints
 * the same alone in a fresh session as after every other statement of one session.
 */
class EveryCommandSweepTest {
    static final int COLUMNS = 80;
    /** The formats held to no null cell; json is not: its null is the typed "no value" of the query semantics. */
    static final List<String> FORMATS = List.of("table", "vertical", "markdown", "csv", "tsv");

    @TempDir
    static Path tmp;

    @Test
    void everyCommandOfTheRegistryIsSwept() {
        assertEquals(List.of(), CommandSweep.untyped(), "commands the sweep has no typical statement for");
    }

    @TestFactory
    Stream<DynamicTest> at80ColumnsNothingWrapsAndNothingIsLostAndAStatementPrintsTheSameWhereverItRuns() throws Exception {
        return CommandSweep.entries().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            List<String> problems = new ArrayList<>();
            Path entry = e.getValue();
            Map<String, String> alone = new HashMap<>();
            for (String s : CommandSweep.statements(entry, tmp, true)) {
                CommandSweep.Output o = CommandSweep.alone(entry, "table", COLUMNS, s);
                Screen.check(s, o.both(), COLUMNS, problems);
                alone.put(s, o.out());
            }
            List<String> queries = CommandSweep.statements(entry, tmp, false);
            List<List<CommandSweep.Output>> passes = CommandSweep.session(entry, "table", COLUMNS, queries, 2);
            for (int i = 0; i < queries.size(); i++) {
                String s = queries.get(i);
                Screen.check(s, passes.get(1).get(i).both(), COLUMNS, problems);
                // modules lists a big directory's modules without reading them, and says so: its
                // figures come as other statements read them (a note names those that read them all)
                if (alone.get(s).contains("not read yet")) continue;
                for (int p = 0; p < passes.size(); p++) {
                    String after = passes.get(p).get(i).out();
                    if (!after.equals(alone.get(s)))
                        problems.add("'" + s + "' prints otherwise " + (p == 0 ? "after the statements before it" : "after every other statement")
                                + " than alone:\n" + Screen.difference(alone.get(s), after));
                }
            }
            if (!problems.isEmpty()) fail(e.getKey() + ": " + problems.size() + " problems\n\n" + String.join("\n\n", problems));
        }));
    }

    @TestFactory
    Stream<DynamicTest> noNullCellInAnyFormat() throws Exception {
        return CommandSweep.entries().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            List<String> problems = new ArrayList<>();
            List<String> queries = CommandSweep.statements(e.getValue(), tmp, false);
            for (String format : FORMATS) {
                List<CommandSweep.Output> outs = CommandSweep.session(e.getValue(), format, 0, queries, 1).get(0);
                for (int i = 0; i < queries.size(); i++) Screen.nulls(format, queries.get(i), outs.get(i).out(), problems);
            }
            if (!problems.isEmpty()) fail(e.getKey() + ": " + problems.size() + " problems\n\n" + String.join("\n\n", problems));
        }));
    }
}
