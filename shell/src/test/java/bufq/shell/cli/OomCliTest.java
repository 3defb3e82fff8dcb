package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code oom} through the real entry point, one table of cases: a file, {@code --oom}, {@code oom -}
 * from stdin in a batch run and in piped statements, text without a message, a missing file,
 * {@code help oom}, json and {@code bufq.oom} in a script. On the oom-cpu/pair copy in test resources.
 */
class OomCliTest {
    static final Path PAIR = CliTest.root().resolve("query-engine/src/test/resources/fixtures/oom-cpu/pair");
    static final String LOG = PAIR.resolve("run.log").toString();
    static final String DUMP = PAIR.resolve("dump").toString();
    static final String JOINED = "module_0008.jit__lambda          15  temp";

    record Case(String name, List<String> args, String stdin, int code, String outHas, String err) {}

    static List<Case> cases() throws Exception {
        String message = Files.readString(PAIR.resolve("run.log"));
        return List.of(
                new Case("a file", List.of("-c", "oom " + LOG, DUMP), "", 0, JOINED, ""),
                new Case("--oom", List.of("--oom", LOG, DUMP), "", 0, JOINED, ""),
                new Case("oom - reads stdin in a batch run", List.of("-c", "oom -", DUMP), message, 0, JOINED, ""),
                new Case("oom - in piped statements reads up to a blank line", List.of(DUMP),
                        "oom -\n" + message + "\nmodules\n", 0, "current  module", ""),
                new Case("no message: one line, exit 1", List.of("-c", "oom -", DUMP), "Traceback (most recent call last):\nValueError: x\n",
                        1, null, "error: no out-of-memory message in the paste (2 lines read)\n"),
                new Case("a missing file", List.of("--oom", "no-such.log"), "", 1, null,
                        "error: cannot read no-such.log: no such file\n"),
                new Case("help oom", List.of("-c", "help oom"), "", 0, "oom FILE|-", ""),
                new Case("a capacity the message states is what fit checks against", List.of("-c", "oom -", "-c", "set capacity", DUMP),
                        "XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used 20.00G of 15.48G hbm."
                                + " Exceeded hbm capacity by 4.52G.\n", 0, "16616783872B",
                        "capacity 16616783872 B taken from message 1 (it states 15.48G, the least byte count that prints so):"
                                + " 'fit' checks against it; 'set capacity' changes it\n"),
                new Case("a capacity set by the user stays", List.of("--capacity", "16GiB", "-c", "oom -", "-c", "set capacity", DUMP),
                        "XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used 20.00G of 15.48G hbm.\n",
                        0, "16GiB", ""),
                new Case("json", List.of("--format", "json", "--oom", LOG, DUMP), "", 0, "\"allocation\": 15", ""),
                new Case("bufq.oom in a script", List.of("-c",
                        "js bufq.oom('RESOURCE_EXHAUSTED: Out of memory allocating 4608000000 bytes.').which_module_and_allocation[0].allocation",
                        DUMP), "", 0, "15", ""));
    }

    @Test
    void everyCase() throws Exception {
        for (Case c : cases()) {
            CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), c.args(), c.stdin());
            assertEquals(c.code(), r.code(), c.name() + ": " + r.err());
            if (c.outHas() == null) assertEquals("", r.out(), c.name());
            else assertTrue(r.out().contains(c.outHas()), c.name() + ":\n" + r.out());
            String err = r.err().lines().filter(l -> !l.startsWith("bufq: warning:")).map(l -> l + "\n")
                    .reduce("", String::concat);
            assertEquals(c.err(), err, c.name());
        }
    }
}
