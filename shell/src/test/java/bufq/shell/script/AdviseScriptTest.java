package bufq.shell.script;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code bufq.advise()} is the {@code advise} command's one list: the same rows, a script's rule among them. */
class AdviseScriptTest {
    final Harness h = new Harness().load(Harness.root().resolve("examples/jax-mlp"));

    @AfterEach
    void close() throws Exception { h.close(); }

    @Test
    void theScriptSeesTheCommandsList() {
        h.ok("js bufq.rule('halve-f32', m => [{finding: 'halve every f32 value', whatif: 'scale where dtype = \"f32\" by 0.5',"
                + " jax: 'x.astype(jnp.bfloat16)'}])");
        String script = h.ok("js const a = bufq.advise(); print(a.title); a.advice.forEach(r => print(r.rank, r.change, r.saves, r.jax))");
        h.ok("format json");
        String command = h.ok("advise");
        List<String> rows = new ArrayList<>();
        Matcher m = Pattern.compile("\"rank\": (\\d+), \"change\": \"([^\"]*)\", \"saves\": (\\d+), \"peak_share\": [^,]*, \"figure\": \"[^\"]*\","
                + " \"jax\": \"([^\"]*)\"").matcher(command);
        while (m.find()) rows.add(m.group(1) + " " + m.group(2) + " " + m.group(3) + " " + m.group(4));
        assertFalse(rows.isEmpty(), command);
        List<String> printed = script.lines().toList();
        assertTrue(printed.get(0).startsWith("advice for the peak of jit_f "), script);
        assertEquals(rows, printed.subList(1, printed.size()), script);
        assertTrue(rows.stream().anyMatch(r -> r.contains(" halve-f32 ") && r.endsWith(" x.astype(jnp.bfloat16)")), rows.toString());
    }
}
