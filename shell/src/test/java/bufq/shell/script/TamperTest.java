package bufq.shell.script;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/**
 * One script cannot disable another: whatever an earlier script does to the global scope, the
 * {@code bufq} object and its functions stay bufq's, and a later script's check takes effect.
 */
class TamperTest {
    final Harness h = new Harness().load(Harness.seed(0));

    @AfterEach
    void close() throws Exception { h.close(); }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "globalThis.bufq = Object.assign({}, bufq, {check: () => undefined})",
            "bufq = {check: () => undefined}",
            "Object.defineProperty(globalThis, 'bufq', {get: () => ({check: () => undefined})})",
            "delete globalThis.bufq",
            "var bufq = {check: () => undefined}",
            "let bufq = {check: () => undefined}",
            "const bufq = {check: () => undefined}",
            "bufq.check = () => undefined",
            "Object.defineProperty(bufq, 'check', {value: () => undefined})",
            "Object.setPrototypeOf(bufq, {})",
            "Object.freeze(bufq); delete bufq.check",
            "bufq.check.apply = () => undefined; bufq.check.call = () => undefined",
            "globalThis.print = () => undefined",
    })
    void aLaterChecksRegistrationTakesEffect(String evil) {
        h.run("js " + evil); // may fail: what matters is what the next script gets
        assertFalse(h.err().contains("internal error"), h.err());
        h.ok("js bufq.check('always', (m, r) => r.error(m.values[0], 'flagged by a later script'))");
        h.clear();
        h.run("check");
        String all = h.out() + h.err();
        assertTrue(all.contains("flagged by a later script"), evil + ":\n" + all);
        assertEquals("ok\n", h.ok("js print('ok')"), "print is still bufq's");
    }
}
