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
            "bufq.analysis.check.apply = () => undefined; bufq.analysis.check.call = () => undefined",
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

    /** What a later check sees of the module through the built-ins: for-of, map, forEach, push, Object.keys, JSON, Map, Set. */
    static final String COUNTING_CHECK = "js bufq.check('counting', (m, r) => {"
            + " const seen = []; for (const v of m.values) seen.push(v.name);"
            + " let each = 0; m.values.forEach(() => each++);"
            + " const byName = new Map(); for (const v of m.values) byName.set(v.name, v);"
            + " const keys = Object.keys({a: 1, b: 2}).length;"
            + " r.error(m.values[0], 'seen ' + [seen.length, m.values.map(v => v).length, each, new Set(seen).size > 0,"
            + " byName.size > 0, keys, JSON.stringify({k: 1}), Array.isArray(seen), Math.max(1, 2)].join(' '));"
            + " })";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "Array.prototype[Symbol.iterator] = function* () {}",
            "Object.defineProperty(Array.prototype, Symbol.iterator, {value: function* () {}})",
            "Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({done: true})",
            "Array.prototype.map = () => []",
            "Array.prototype.forEach = () => undefined",
            "Array.prototype.push = () => 0",
            "Array.prototype.join = () => 'seen 0'",
            "Object.keys = () => []",
            "JSON.stringify = () => '{}'",
            "Map.prototype.set = function () { return this; }",
            "Set.prototype.add = function () { return this; }",
            "Math.max = () => 0",
            "Array.isArray = () => false",
            "Map = function () { return {set() {}, get size() { return 0; }}; }",
            "globalThis.JSON = {stringify: () => '{}'}",
            "delete Array.prototype.map",
            "Function.prototype.call = () => undefined",
            "Object.setPrototypeOf(Array.prototype, null)",
    })
    void aLaterCheckSeesTheBuiltInsUnchanged(String evil) {
        String clean = h.ok("js print(bufq.module.values.length)").strip();
        h.run("js " + evil); // refused, or harmless: what matters is what the next script sees
        assertFalse(h.err().contains("internal error"), h.err());
        h.ok(COUNTING_CHECK);
        h.clear();
        h.run("check");
        String all = h.out() + h.err();
        String n = clean;
        assertTrue(all.contains("seen " + n + " " + n + " " + n + " true true 2 {\"k\":1} true 2"), evil + ":\n" + all);
    }

    /** Built-ins outside the list the first hardening froze; a later check parses and tests with them. */
    static final String PARSING_CHECK = "js bufq.check('parsing', (m, r) => {"
            + " const n = parseInt('21', 10) + parseFloat('0.5') + (isNaN(NaN) ? 1 : 0) + (isFinite(1) ? 1 : 0)"
            + " + eval('1') + encodeURIComponent('a b').length + new Int8Array([3]).map(x => x)[0]"
            + " + new Intl.NumberFormat('en').format(1000).length + Uint8Array.from([1]).length;"
            + " r.error(m.values[0], 'parsed ' + n);"
            + " })";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "parseInt = () => 0",
            "globalThis.parseFloat = () => 0",
            "isNaN = () => false",
            "isFinite = () => false",
            "eval = () => 0",
            "encodeURIComponent = () => ''",
            "Intl.NumberFormat = function () { return {format: () => ''}; }",
            "Intl.NumberFormat.prototype.format = () => ''",
            "Int8Array.prototype.map = function () { return [0]; }",
            "Object.getPrototypeOf(Int8Array.prototype).map = function () { return [0]; }",
            "Object.getPrototypeOf(Uint8Array).from = () => []",
            "Object.defineProperty(globalThis, 'parseInt', {value: () => 0})",
            "delete globalThis.isNaN",
    })
    void builtInsBeyondTheFirstListStayIntact(String evil) {
        h.ok(PARSING_CHECK.replace("'parsing'", "'before'"));
        h.clear();
        h.run("check");
        String expected = (h.out() + h.err()).replaceAll("(?s).*?(parsed \\d+).*", "$1");
        assertTrue(expected.startsWith("parsed "), h.out() + h.err());
        h.run("js " + evil); // refused, or harmless: what matters is what the next script sees
        assertFalse(h.err().contains("internal error"), h.err());
        h.ok(PARSING_CHECK);
        h.clear();
        h.run("check");
        String all = h.out() + h.err();
        assertTrue(all.lines().filter(l -> l.contains("parsed ")).count() >= 2, evil + ":\n" + all);
        assertTrue(all.lines().filter(l -> l.contains("parsed ")).allMatch(l -> l.contains(expected)), evil + ":\n" + all);
    }

    @org.junit.jupiter.api.Test
    void aScriptMayStillOverrideInheritedNamesOnItsOwnObjects() {
        // Frozen prototypes would make these plain assignments throw; bufq keeps them working.
        assertEquals("E: boom 3 x\n", h.ok("js const e = new Error('boom'); e.name = 'E';"
                + " function P() {} P.prototype.toString = function () { return 'x'; };"
                + " const o = {}; o.valueOf = () => 3; print(String(e) + ' ' + (+o) + ' ' + new P())"));
        h.run("js Object.prototype.toString = () => 'evil'");
        assertTrue(h.err().contains("Cannot assign to read only property 'toString'"), h.err());
        h.clear();
        h.run("js Array.prototype[Symbol.iterator] = function* () {}");
        assertEquals("error: js:1:1: TypeError: Cannot assign to read only property 'Symbol(Symbol.iterator)' of a frozen object:"
                + " bufq freezes JavaScript's built-ins before any script runs, so that no script changes what the scripts after it see\n", h.err());
        assertEquals("[object Object]\n", h.ok("js print(String({}))"));
    }

    /**
     * Random tampering, fixed seed and count (-Dbufq.fuzz.seed=N replays): writes, redefinitions,
     * deletions and prototype swaps of the built-ins' members, piled up in one session; after every
     * ten, a newly registered check must still see the module whole.
     */
    @org.junit.jupiter.api.Test
    void randomTamperingNeverBlindsALaterCheck() {
        long seed = Long.getLong("bufq.fuzz.seed", 20261126L);
        java.util.Random r = new java.util.Random(seed);
        String[] objects = {"Array.prototype", "Object", "Object.prototype", "Function.prototype", "Map.prototype", "Set.prototype",
                "JSON", "Math", "String.prototype", "Number.prototype", "Reflect", "Symbol", "Promise.prototype", "RegExp.prototype",
                "Error.prototype", "console", "Object.getPrototypeOf([][Symbol.iterator]())",
                "Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()))", "Array", "Map", "globalThis"};
        String[] members = {"Symbol.iterator", "'map'", "'forEach'", "'push'", "'keys'", "'stringify'", "'max'", "'set'", "'add'",
                "'next'", "'join'", "'call'", "'apply'", "'isArray'", "'length'", "'toString'", "'Array'", "'JSON'", "'Map'", "'Set'"};
        String[] values = {"() => undefined", "function* () {}", "() => []", "null", "0", "() => ({done: true})", "'x'"};
        String clean = h.ok("js print(bufq.module.values.length)").strip();
        for (int n = 1; n <= 60; n++) {
            String o = objects[r.nextInt(objects.length)], m = members[r.nextInt(members.length)], v = values[r.nextInt(values.length)];
            String evil = switch (r.nextInt(4)) {
                case 0 -> o + "[" + m + "] = " + v;
                case 1 -> "Object.defineProperty(" + o + ", " + m + ", {value: " + v + "})";
                case 2 -> "delete " + o + "[" + m + "]";
                default -> "Object.setPrototypeOf(" + o + ", " + (r.nextBoolean() ? "null" : "{}") + ")";
            };
            h.clear();
            h.run("js " + evil);
            assertFalse(h.err().contains("internal error"), evil + ": " + h.err());
            if (n % 10 != 0) continue;
            h.ok(COUNTING_CHECK);
            h.clear();
            h.run("check");
            String all = h.out() + h.err();
            assertTrue(all.contains("seen " + clean + " " + clean + " " + clean + " true true 2 {\"k\":1} true 2"),
                    "after case " + n + " (" + evil + "), seed " + seed + ":\n" + all);
        }
    }
}
