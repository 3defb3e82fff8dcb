package bufq.shell.cli;

import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code forecast} through the real entry point: its report, its CI guard's exit codes, its refusals. */
class ForecastCliTest {
    private static String mlp(int b) {
        return Corpus.require("jax-0.10.2/series/mlp-b" + b).toString();
    }

    private static FitCliTest.Case c(String name, int exit, String out, String err, String... args) {
        return FitCliTest.c(name, exit, out, err, args);
    }

    @Test
    void theCommandsCases() {
        String b8 = mlp(8), b16 = mlp(16), b32 = mlp(32), b64 = mlp(64);
        List<FitCliTest.Case> cases = List.of(
                c("three batches forecast the fourth", 0, "x.1[0]     64  [8, 16, 32]      22.3MiB         27  dot.3", "",
                        "-c", "forecast at 64", b8, b16, b32),
                c("the laws are in N", 0, "f32[N,1024]     4096·N", "", "-c", "forecast at 64 limit 40", b8, b16, b32),
                c("json figures are numbers", 0, "\"peak_bytes\": 23351308", "", "--format", "json", "-c", "forecast at 64", b8, b16, b32),
                c("leave-one-out residuals", 0, "the worst peak error is 0.00%", "", "-c", "forecast at 64", b8, b16, b32, b64),
                c("batch 64 fits 23MiB", 0, "jit_step at N=64", "", "--capacity", "23MiB", "--bail", "-c", "forecast fit at 64", b8, b16, b32),
                c("batch 64 does not fit 22MiB: a CI guard", 1, "largest N that fits",
                        "error: forecast fit: jit_step at N=64 needs 22.3MiB, over the 22.0MiB offered",
                        "--capacity", "22MiB", "--bail", "-c", "forecast fit at 64", b8, b16, b32),
                c("the largest batch that fits 22MiB", 0, "needs_bytes, alone                             56", "",
                        "--capacity", "22MiB", "-c", "forecast fit", b8, b16, b32),
                c("fit needs a capacity", 1, "", "fit needs a capacity", "-c", "forecast fit", b8, b16),
                c("one module is no series", 1, "", "error: forecast: no program is loaded at two sizes or more", "-c", "forecast at 64", b8),
                c("the same size twice is no series", 1, "", "no entry parameter's shape differs", "-c", "forecast at 64",
                        Corpus.require("jax-0.10.2/pairs/transformer-4layer").toString(),
                        Corpus.require("jax-0.10.2/pairs/transformer-4layer-again").toString()),
                c("a named dimension that does not vary", 1, "", "these do: x.1[0]", "-c", "forecast y at 64", b8, b16),
                c("a bad statement says the usage", 1, "", "'at' needs a value; usage: forecast", "-c", "forecast at", b8, b16),
                c("a word out of place says the usage", 1, "", "usage: forecast [DIM] at N", "-c", "forecast at 64 please", b8, b16));
        FitCliTest.check(cases);
    }

    @Test
    void differentProgramsAreRefusedWithTheValuesThatDidNotPair() {
        String s128 = Corpus.require("jax-0.10.2/series/transformer-s128").toString();
        DiffCommandTest.Run r = DiffCommandTest.bufq("-c", "forecast at 64", mlp(8), s128);
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.out().contains("values that did not pair"), r.out());
        assertTrue(r.err().contains("value keys did not pair"), r.err());
    }

    @Test
    void fromAScript() {
        DiffCommandTest.Run r = DiffCommandTest.bufq("-c",
                "js const f = bufq.forecast('at 64'); const x = f.laws.filter(r => r.value === 'x.1')[0];"
                        + " print(x.shape, x.bytes_law, x.bytes, f.forecast[0].peak_bytes)", mlp(8), mlp(16), mlp(32));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("f32[N,1024] 4096·N 262144 23351308"), r.out());
    }

    /**
     * The scripts API reaches forecast fit through the engine's capacity policy, as the command does.
     * 465464 is the real largest batch: compiled, batch 465464 needs 17,179,856,980 B of the
     * 17,179,869,184 and batch 465465 needs 17,179,893,844 B (the forecast gives both to the byte).
     */
    @Test
    void fitFromAScript() {
        DiffCommandTest.Run r = DiffCommandTest.bufq("--capacity", "16GiB", "-c",
                "js const f = bufq.forecast('fit at 64'); print(f.largest_n_that_fits[0].largest_n, f.at_n[0].fits)", mlp(8), mlp(16), mlp(32));
        assertEquals(0, r.exit(), r.err());
        DiffCommandTest.Run command = DiffCommandTest.bufq("--capacity", "16GiB", "-c", "forecast fit at 64", mlp(8), mlp(16), mlp(32));
        assertTrue(command.out().contains("needs_bytes, alone                         465464"), command.out());
        assertTrue(r.out().contains("465464 true"), r.out());
        DiffCommandTest.Run none = DiffCommandTest.bufq("-c", "js bufq.forecast('fit')", mlp(8), mlp(16), mlp(32));
        assertTrue(none.err().contains("'fit' needs a capacity"), none.err());
    }
}
