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
    /** What oom says as it makes the module the message names current. */
    static final String USING = "using jit__lambda#0008 (named by message 1; 'use' picks another)\n";
    static final String JOINED = "module_0008.jit__lambda          15  temp";

    record Case(String name, List<String> args, String stdin, int code, String outHas, String err) {}

    static List<Case> cases() throws Exception {
        String message = Files.readString(PAIR.resolve("run.log"));
        return List.of(
                new Case("a file", List.of("-c", "oom " + LOG, DUMP), "", 0, JOINED, USING),
                new Case("--oom", List.of("--oom", LOG, DUMP), "", 0, JOINED, USING),
                new Case("oom - reads stdin in a batch run", List.of("-c", "oom -", DUMP), message, 0, JOINED, USING),
                // and the module the message names is current from then on
                new Case("oom - in piped statements reads up to a blank line", List.of(DUMP),
                        "oom -\n" + message + "\nmodules\n", 0, "5  jit__lambda#0008           jit__lambda               true", USING),
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
                new Case("json", List.of("--format", "json", "--oom", LOG, DUMP), "", 0, "\"allocation\": 15", USING),
                new Case("json: an exact size is a number", List.of("--format", "json", "--oom", LOG, DUMP), "", 0,
                        "\"requested\": 4608000000,", USING),
                new Case("json: a rounded size is what prints so and its interval", List.of("--format", "json", "-c", "oom -"),
                        "Ran out of memory in memory space hbm. Used 17.79M of 16.00M hbm.\n", 0,
                        "\"used\": {\"printed\": \"17.79M\", \"low\": 18649088, \"high\": 18660351}",
                        "capacity 16772096 B taken from message 1 (it states 16.00M, the least byte count that prints so):"
                                + " 'fit' checks against it; 'set capacity' changes it\n"),
                // vllm-project/vllm#8318: an smem capacity is never the HBM capacity fit checks
                new Case("an smem capacity is not taken", List.of("-c", "oom -", "-c", "set capacity", DUMP),
                        "RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory space smem. Used 1.00M"
                                + " of 1.00M smem. Exceeded smem capacity by 1.7K.\n", 0, "capacity  none", ""),
                // EnzymeAD/Enzyme-JAX#1363: a log with warnings and no OOM lists them, exit 0
                new Case("warnings without an OOM", List.of("-c", "oom -", DUMP),
                        "W0000 00:00:1756998431.440298    5182 hlo_rematerialization.cc:3183] Can't reduce memory use below 10.64GiB"
                                + " (11428802214 bytes) by rematerialization; only reduced to 71.27GiB (76523901244 bytes), down from"
                                + " 73.51GiB (78931543988 bytes) originally\n", 0, "rematerialization",
                        "no out-of-memory message in the paste; 1 warning of the log that bear on memory\n"),
                new Case("bufq.oom in a script", List.of("-c",
                        "js bufq.oom('RESOURCE_EXHAUSTED: Out of memory allocating 4608000000 bytes.').which_module_and_allocation[0].allocation",
                        DUMP), "", 0, "15", ""));
    }

    /** {@code oom - < /dev/zero} reads 128 MiB and says the rest was not read. */
    @Test
    void aStreamPastTheBoundIsCut() throws Exception {
        String zeros = "\0".repeat(bufq.analysis.oom.OomReader.MAX_BYTES + 4096);
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of("-c", "oom -"), zeros);
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("read the first 134,217,728 bytes (128 MiB) of the paste: the rest was not read"), r.err());
        assertTrue(r.err().contains("no out-of-memory message in the paste"), r.err());
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
