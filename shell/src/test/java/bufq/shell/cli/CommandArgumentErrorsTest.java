package bufq.shell.cli;

import bufq.analysis.whatif.EditParser;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.command.Commands;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bad argument to every command: the statement, a caret under the word at fault (or past the end
 * when something is missing) and a message, with a "did you mean" where a near word exists; never a
 * stack trace. And every command's synopsis is its grammar's.
 */
class CommandArgumentErrorsTest {
    private static final String SEED = CliTest.root().resolve("examples/seeds/004_0cb419b3147a3cb6.txt").toString();

    /** @param line the statement; @param under the word the caret is under, "" for past the end; @param says part of the message */
    private record Case(String line, String under, String says) {}

    private static final List<Case> CASES = List.of(
            new Case("load", "", "expected PATH; usage: load PATH..."),
            new Case("modules x", "x", "expected a clause"),
            new Case("use zz", "zz", "no module 'zz'"),
            new Case("summary x", "x", "unexpected 'x'; usage: summary"),
            new Case("fields valeus", "valeus", "unknown entity 'valeus'; did you mean 'values'?"),
            new Case("peak space vmen", "vmen", "no memory space 'vmen'"),
            new Case("timeline space vmen", "vmen", "did you mean 'vmem'"),
            new Case("timeline colr 1", "colr", "did you mean 'color'?"),
            new Case("map allocation x", "x", "N takes a whole number >= 0, not 'x'"),
            new Case("padding limit x", "x", "'limit' takes a whole number >= 0, not 'x'"),
            new Case("fragmentation limt 3", "limt", "did you mean 'limit'?"),
            new Case("blame by colour", "colour", "blame by takes op_name, source"),
            new Case("blame by sorce", "sorce", "did you mean 'source'?"),
            new Case("blame dpeth 3", "dpeth", "did you mean 'depth'?"),
            new Case("blame at fusion.1", "fusion.1", "'at' takes peak, claimed_peak"),
            new Case("peaks min_share 2", "2", "min_share takes a percentage"),
            new Case("why 99999999", "99999999", "no value with id 99999999"),
            new Case("whatif drop x", "x", "expected 'where'"),
            new Case("advise now", "now", "unexpected 'now'; usage: advise"),
            new Case("check x", "x", "unexpected 'x'; usage: check"),
            new Case("diff 1 zz", "zz", "no module 'zz'"),
            new Case("forecast fti", "fti", "did you mean 'fit'"),
            new Case("export parqet out", "parqet", "did you mean 'parquet'?"),
            new Case("export pprof f.pb.gz at fusoin", "fusoin", "'at' takes peak"),
            new Case("sql --fail-on-row select 1", "--fail-on-row", "did you mean '--fail-on-rows'?"),
            new Case("format jsn", "jsn", "did you mean 'json'"),
            new Case("set maxrow 3", "maxrow", "unknown setting 'maxrow'; did you mean 'maxrows'?"),
            new Case("output a b", "b", "unexpected 'b'"),
            new Case("timer of", "of", "timer takes on or off, not 'of'"),
            new Case("history x", "x", "unexpected 'x'; usage: history"),
            new Case("run", "", "expected FILE"),
            new Case("js", "", "expected CODE"),
            new Case("help a b", "b", "unexpected 'b'; usage: help [TOPIC]"),
            new Case("quit now", "now", "unexpected 'now'; usage: quit"),
            new Case("clear x", "x", "unexpected 'x'; usage: clear"),
            new Case("fit where progam = 1", "progam", "did you mean 'program'?"),
            new Case("fit zz", "zz", "no module 'zz'"),
            new Case("oom", "", "expected FILE|-"),
            // whatif's edits and why's value: the same caret and did-you-mean as a query's
            new Case("whatif drp where size > 1", "drp", "unknown edit 'drp'; expected drop, end, donate, scale, size, remat, tiling, "
                    + "or a query as the last part; did you mean 'drop'?"),
            new Case("whatif drop wher size > 1", "wher", "did you mean 'where'?"),
            new Case("whatif scale where size > 1 bi 0.5", "bi", "did you mean 'by'?"),
            new Case("whatif drop where sise > 1", "sise", "unknown field 'sise' for values; did you mean 'size'?"),
            new Case("whatif drop where size > 1; steps limt 3", "limt", "did you mean 'limit'?"),
            new Case("why Arg_1.3", "Arg_1.3", "no value named Arg_1.3 in 004_0cb419b3147a3cb6; expected an id"),
            new Case("why Arg_1.3", "Arg_1.3", "; did you mean 'Arg_1.37'?"),
            new Case("why values wher size > 1", "wher", "did you mean 'where'?"),
            new Case("why values where sise > 1", "sise", "unknown field 'sise' for values; did you mean 'size'?"));

    @Test
    void everyBadArgumentIsACaretAndAMessage() {
        for (Case c : CASES) {
            DiffCommandTest.Run r = DiffCommandTest.bufq("-c", c.line(), SEED);
            assertEquals(1, r.exit(), c.line() + ": " + r.err());
            assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), c.line() + ": " + r.err());
            String[] lines = r.err().split("\n");
            int at = List.of(lines).indexOf(c.line());
            assertTrue(at >= 0 && at + 2 < lines.length, c.line() + ": the statement, then the caret: " + r.err());
            int column = c.under().isEmpty() ? c.line().length() : c.line().lastIndexOf(c.under());
            String caret = " ".repeat(column) + "^".repeat(Math.max(1, c.under().length()));
            assertEquals(caret, lines[at + 1], c.line() + ": " + r.err());
            assertTrue(lines[at + 2].contains(c.says()), c.line() + ": " + r.err());
        }
    }

    /** Each edit's name with two letters swapped: the caret under it and the edit it meant, from the declared edits. */
    @Test
    void everyMisspeltEditIsNamed() {
        ArgGrammar edits = Commands.standard().byName("whatif").grammar().parts();
        assertFalse(edits.forms().isEmpty(), "whatif declares its edits");
        for (ArgGrammar e : edits.forms()) {
            String verb = e.command(), typo = verb.charAt(0) + "" + verb.charAt(2) + verb.charAt(1) + verb.substring(3);
            String line = "whatif " + typo + " where size > 1";
            DiffCommandTest.Run r = DiffCommandTest.bufq("-c", line, SEED);
            String[] lines = r.err().split("\n");
            int at = List.of(lines).indexOf(line);
            assertTrue(at >= 0 && at + 2 < lines.length, line + ": " + r.err());
            assertEquals(" ".repeat("whatif ".length()) + "^".repeat(typo.length()), lines[at + 1], line);
            assertTrue(lines[at + 2].endsWith("did you mean '" + verb + "'?"), line + ": " + r.err());
        }
    }

    @Test
    void theEditsAreTheOnesTheEngineParses() {
        List<String> declared = new ArrayList<>();
        for (ArgGrammar e : Commands.standard().byName("whatif").grammar().parts().forms()) declared.add(e.command());
        assertEquals(EditParser.KINDS, declared);
    }

    @Test
    void theTableCoversEveryCommand() {
        Set<String> covered = new TreeSet<>(), all = new TreeSet<>();
        for (Case c : CASES) covered.add(c.line().split(" ")[0]);
        for (Command c : Commands.standard().all()) all.add(c.name());
        assertEquals(all, covered);
    }

    @Test
    void everySynopsisIsMadeFromItsGrammar() {
        List<String> own = new ArrayList<>();
        for (Command c : Commands.standard().all()) {
            assertEquals(c.name(), c.grammar().command(), "a grammar names its command");
            assertEquals(c.grammar().synopsis(), c.synopsis(), c.name());
            try {
                c.getClass().getDeclaredMethod("synopsis");
                own.add(c.name());
            } catch (NoSuchMethodException e) {
                // made from the grammar, as it should be
            }
        }
        assertEquals(List.of(), own, "commands writing their own synopsis");
        assertThrows(NoSuchMethodException.class, () -> Command.class.getMethod("arity", List.class, int.class, int.class),
                "no word-counting beside the grammar");
    }
}
