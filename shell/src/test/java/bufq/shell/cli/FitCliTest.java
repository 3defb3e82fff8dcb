package bufq.shell.cli;

import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code fit} and {@code diff --fail-over} as CI guards: their exit codes through the real entry point. */
class FitCliTest {
    static final String PAIR = CliTest.root().resolve("query-engine/src/test/resources/fixtures/oom-cpu/pair/dump").toString();

    record Case(String name, List<String> args, int exit, String out, String err) {}

    static Case c(String name, int exit, String out, String err, String... args) {
        return new Case(name, List.of(args), exit, out, err);
    }

    /** Runs each case through the real entry point: its exit code, and the text it must print on each stream. */
    static void check(List<Case> cases) {
        for (Case k : cases) {
            DiffCommandTest.Run r = DiffCommandTest.bufq(k.args().toArray(String[]::new));
            assertEquals(k.exit(), r.exit(), k.name() + "\n" + r.out() + r.err());
            assertTrue(r.out().contains(k.out()), k.name() + ": " + r.out());
            assertTrue(r.err().contains(k.err()), k.name() + ": " + r.err());
        }
    }

    @Test
    void theGuardsExitCodes() {
        List<Case> cases = List.of(
                c("the pair over a 7,000,000 KiB limit less 2 GiB fails on the second program", 1,
                        "jit__lambda:0", "error: fit: jit__lambda#0008 fits alone but not with the arrays kept before it (1.0GiB):"
                                + " 5.3GiB of 4.7GiB offered, over by 632.8MiB (663514636 B); the largest held is jit__lambda:0,"
                                + " output of jit__lambda f32[262144,1024], 1.0GiB\n",
                        "--capacity", "7000000KiB", "--reserved", "2GiB", "--bail", "-c", "fit", PAIR),
                c("without the reservation it fits", 0, "every program fits", "",
                        "--capacity", "7000000KiB", "-c", "fit", PAIR),
                c("a v5e holds it", 0, "device v5e: 16 GiB HBM2 per chip", "", "--device", "v5e", "-c", "fit", PAIR),
                // the why column is a field in json and, for people, a line under the table
                c("a program's why prints under the table", 0, "jit__lambda#0008: peak_bytes is 93.8KiB below needs", "",
                        "--capacity", "16GiB", "-c", "fit", PAIR),
                c("dropping the first program's output makes it fit", 0, "every program fits", "",
                        "--capacity", "7000000KiB", "--reserved", "2GiB", "-c", "fit drop jit__lambda:0", PAIR),
                c("keeping nothing is each program alone", 0, "every program fits", "",
                        "--capacity", "7000000KiB", "--reserved", "2GiB", "-c", "fit keep none", PAIR),
                c("naming the programs", 0, "jit__lambda#0008", "",
                        "--capacity", "7000000KiB", "--reserved", "2GiB", "-c", "fit 5", PAIR),
                c("a modules query picks them", 1, "jit__lambda#0008", "error: fit: jit__lambda#0008 fits alone but not",
                        "--capacity", "7000000KiB", "--reserved", "2GiB", "-c", "fit where program = 'jit__lambda'", PAIR),
                c("a program that does not fit alone", 1, "", "error: fit: jit__lambda#0008 does not fit alone",
                        "--capacity", "4GiB", "-c", "fit keep none", PAIR),
                c("no capacity is an error saying how to give one", 1, "", "fit needs a capacity: set capacity SIZE",
                        "-c", "fit", PAIR),
                c("a bad capacity is a usage error", 2, "", "bufq: --capacity: capacity: expected a size such as 16GiB",
                        "--capacity", "lots", "-c", "fit", PAIR),
                c("an unknown device names the known ones", 2, "", "unknown device 'h1000'",
                        "--device", "h1000", "-c", "fit", PAIR),
                c("a spec naming nothing", 1, "", "'jit__lambda:9' names no array",
                        "--capacity", "16GiB", "-c", "fit drop jit__lambda:9", PAIR),
                c("set device then fit", 0, "device h100", "", "-c", "set device h100", "-c", "fit", PAIR),
                c("help device lists the table with sources", 0, "NVIDIA H100 Tensor Core GPU datasheet", "", "-c", "help device"),
                c("modules gains JAX's figures", 0, "needs_bytes", "", "--format", "csv", "-c", "modules", PAIR),
                c("diff of a dump with itself is no growth", 0, "needs_bytes (--fail-over 0%)", "",
                        "-c", "diff " + PAIR + " " + PAIR + " --fail-over 0", PAIR),
                c("a bad --fail-over", 1, "", "--fail-over takes a percentage", "-c", "diff 1 1 --fail-over much", PAIR));
        check(cases);
    }

    @Test
    void theCsvOfModulesHasTheFiguresOfMemoryAnalysis() {
        DiffCommandTest.Run r = DiffCommandTest.bufq("--format", "csv", "-c", "modules where program = 'jit__lambda' show handle,"
                + " argument_bytes, output_bytes, alias_bytes, temp_bytes, code_bytes, needs_bytes", PAIR);
        assertEquals(0, r.exit(), r.err());
        assertEquals("handle,argument_bytes,output_bytes,alias_bytes,temp_bytes,code_bytes,needs_bytes\n"
                + "jit__lambda,2097152,1073741824,0,0,,1075838976\n"
                + "jit__lambda#0008,96000,96000,0,4608000000,,4608192004\n", r.out());
    }

    @Test
    void diffFailsWhenAProgramNeedsMoreThanAllowed(@TempDir Path dir) throws Exception {
        // after: the same program with its temp grown from 4,608,000,000 to 5,000,000,000 bytes (+8.5% needs)
        Path before = dir.resolve("before"), after = dir.resolve("after");
        Files.createDirectories(before);
        Files.createDirectories(after);
        String name = "module_0008.jit__lambda.cpu_after_optimizations-buffer-assignment.txt";
        String text = Files.readString(Path.of(PAIR, name));
        Files.writeString(before.resolve(name), text);
        // the last value grows with it: a last allocation its values stop short of reads as a cut file
        Files.writeString(after.resolve(name), text.replace("allocation 15: size 4608000000", "allocation 15: size 5000000000")
                .replace("<63 copy_bitcast_fusion @0> (size=2304000000,", "<63 copy_bitcast_fusion @0> (size=2696000000,"));
        DiffCommandTest.Run r = DiffCommandTest.bufq("-c", "diff " + before + " " + after + " --fail-over 5");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("error: diff: jit__lambda#2 needs 5000192004 B after, 4608192004 B before: +8.5%,"
                + " more than the 5% allowed (--fail-over)") || r.err().contains("needs 5000192004 B after, 4608192004 B before: +8.5%"), r.err());
        r = DiffCommandTest.bufq("-c", "diff " + before + " " + after + " --fail-over 10");
        assertEquals(0, r.exit(), r.out() + r.err());
    }

    @Test
    void everyCorpusOomCaseRunsFit() {
        Path pair = Corpus.require("oom-cpu/pair/dump");
        DiffCommandTest.Run r = DiffCommandTest.bufq("--capacity", "7000000KiB", "--reserved", "2GiB", "--bail", "-c", "fit", pair.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("jit__lambda#0008 fits alone but not with the arrays kept before it"), r.err());
        Path distances = Corpus.require("oom-cpu/distances/dump");
        r = DiffCommandTest.bufq("--capacity", "16GiB", "--bail", "-c", "fit", distances.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("does not fit alone: needs 465.7GiB of 16.0GiB offered"), r.err());
    }
}
