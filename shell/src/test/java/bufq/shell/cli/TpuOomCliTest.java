package bufq.shell.cli;

import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The corpus's real XLA:TPU compile-time failures ({@code tpu/oom/<case>/run.log} and
 * {@code exception.txt} beside the failing compile's dump): {@code --oom} joins each message to its
 * module, and {@code fit} agrees with it, over the capacity the message states.
 */
class TpuOomCliTest {
    @Test
    void everyCaseJoinsAndFitAgrees() throws Exception {
        Path oom = Corpus.requireSome("tpu/oom");
        int cases = 0;
        try (Stream<Path> s = Files.list(oom)) {
            for (Path c : s.sorted().toList()) {
                if (!Files.exists(c.resolve("exception.txt"))) continue;
                cases++;
                String dump = c.resolve("dump").toString();
                for (String file : List.of("run.log", "exception.txt")) {
                    String log = c.resolve(file).toString(), at = c.getFileName() + "/" + file;
                    DiffCommandTest.Run join = DiffCommandTest.bufq("--format", "markdown", "--oom", log, dump);
                    assertEquals(0, join.exit(), at + join.err());
                    assertTrue(join.out().contains("| 1 | 1 | jit_"), at + ": no module joined\n" + join.out());
                    DiffCommandTest.Run fit = DiffCommandTest.bufq("--format", "markdown", "--oom", log, "-c", "fit", dump);
                    assertEquals(1, fit.exit(), at + fit.out() + fit.err());
                    if (join.out().contains("| vmem |")) {
                        assertTrue(fit.err().contains("error: fit: jit_ffn_forward does not fit vmem: message 1 of " + file
                                + " says it needs 289.82M of 128.00M vmem, over by 161.82M"), at + fit.err());
                        assertTrue(fit.err().contains("the device memory (HBM) is not checked"), at + fit.err());
                    } else {
                        assertTrue(fit.err().contains("B taken from message 1 (it states 15.75G, the least byte count that prints so)"),
                                at + fit.err());
                        assertTrue(fit.out().contains("message 1 of " + file + " states 15.75G (16906190848 B"), at + fit.out());
                        assertTrue(fit.out().contains("message 1 of " + file + " agrees: the compile refused jit_train_step"),
                                at + fit.out());
                        assertTrue(fit.err().contains("error: fit: jit_train_step does not fit alone"), at + fit.err());
                        // the failing dump's HBM total over the stated capacity is the excess the message's figures allow
                        DiffCommandTest.Run whole = DiffCommandTest.bufq("--oom", log, "-c", "set maxwidth 0", "-c", "fit", dump);
                        assertTrue(whole.out().contains(" B the message's figures allow; fit: needs"), at + whole.out());
                        assertTrue(whole.out().contains(", within the "), at + whole.out());
                    }
                }
            }
        }
        assertTrue(cases >= 1, "no failing case under " + oom);
    }

    /** A device's table figure gives way to the capacity the message states, and fit says so. */
    @Test
    void theMessagesCapacityWinsOverTheDevices() {
        Path c = Corpus.require("tpu/oom/replicated-embedding");
        DiffCommandTest.Run r = DiffCommandTest.bufq("--device", "v5e", "--oom", c.resolve("run.log").toString(), "-c", "fit",
                c.resolve("dump").toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("(it states 15.75G, the least byte count that prints so, in place of device v5e's"), r.err());
        assertTrue(r.out().contains("agrees: the compile refused jit_train_step (it says the program needs 16.36G of HBM"
                + " against 15.75G available, over by 0.61G)"), r.out());
    }
}
