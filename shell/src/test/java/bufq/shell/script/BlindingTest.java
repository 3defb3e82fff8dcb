package bufq.shell.script;

import bufq.shell.cli.Bufq;
import bufq.shell.repl.PlainRepl;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * No script blinds a later one. Every intrinsic is frozen (found by walking, not by a
 * list), the global object cannot be locked or given another prototype, each file's top-level names
 * are its own, and a CI run with a tampering script first still fails where it fails without it.
 */
class BlindingTest {
    final Harness h = new Harness().load(Harness.seed(0));

    @AfterEach
    void close() throws Exception { h.close(); }

    /**
     * Walks everything a script can reach from the globals and from instances and syntax (generator,
     * async, iterator, Intl objects ...) through prototypes, values, getters and setters, and lists
     * each object that is not frozen; bufq's own host objects are locked by bufq and skipped.
     */
    static final String WALK = """
            const {getPrototypeOf, getOwnPropertyDescriptor, isFrozen} = Object;
            const seg = new Intl.Segmenter('en').segment('');
            const roots = [function* () {}, async function () {}, async function* () {}, 'a'.matchAll(/a/g), [].values(),
              new Map().keys(), new Set().values(), ''[Symbol.iterator](), [].values().map(x => x),
              Iterator.from({next() { return {done: true}; }}), seg, seg[Symbol.iterator](),
              getOwnPropertyDescriptor(Function.prototype, 'caller').get, Promise.resolve(), /a/, new Error(), new Date(),
              new WeakRef({}), new Int8Array(1), new DataView(new ArrayBuffer(1)), new SharedArrayBuffer(1), Object(1n),
              Object(Symbol()), Proxy.revocable({}, {}), new FinalizationRegistry(() => {}), new Intl.Collator(),
              new Intl.NumberFormat(), new Intl.DateTimeFormat(), new Intl.PluralRules(), new Intl.RelativeTimeFormat(),
              new Intl.ListFormat(), new Intl.DisplayNames(['en'], {type: 'region'}), new Intl.Locale('en')];
            const seen = new Set([globalThis, bufq, print, printErr]), open = [];
            const work = roots.map((r, i) => ['roots[' + i + '].__proto__', getPrototypeOf(r)]);
            for (const k of Reflect.ownKeys(globalThis)) {
              const d = getOwnPropertyDescriptor(globalThis, k);
              work.push([String(k), d.value], [String(k) + '.get', d.get], [String(k) + '.set', d.set]);
            }
            while (work.length > 0) {
              const [path, v] = work.pop();
              if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v)) continue;
              seen.add(v);
              let keys;
              try { keys = Reflect.ownKeys(v); } catch (e) { continue; }
              if (!isFrozen(v)) open.push(path);
              work.push([path + '.__proto__', getPrototypeOf(v)]);
              for (const k of keys) {
                const d = getOwnPropertyDescriptor(v, k), p = path + '.' + String(k);
                if (d) work.push([p, d.value], [p + '.get', d.get], [p + '.set', d.set]);
              }
            }
            print(seen.size > 700 ? 'walked; not frozen: ' + open.length + ' ' + open.slice(0, 10).join(', ') : 'walked too little: ' + seen.size);
            """;

    @Test
    void everyIntrinsicAScriptCanReachIsFrozen(@TempDir Path dir) throws Exception {
        Path walk = Files.writeString(dir.resolve("walk.js"), WALK);
        assertEquals("walked; not frozen: 0 \n", h.ok("run " + walk));
    }

    /** A check a CI run relies on: it sees the values through a generator, matchAll, iterator helpers and a borrowed method. */
    static final String MY_CHECK = """
            const out = [];
            function* names(values) { for (const v of values) yield v.name; }
            bufq.check('my-check', (m, r) => {
              for (const n of names(m.values)) out.push(n);
              const digits = [...'a1b2'.matchAll(/[0-9]/g)].length;
              const mapped = [1, 2].values().map(x => x).toArray().length;
              const has = Set.prototype.has.call(new Set(out), m.values[0].name);
              const limit = typeof MY_LIMIT === 'number' ? MY_LIMIT : out.length;
              r.error(m.values[0], 'my-check saw ' + Math.min(limit, out.length) + ' ' + digits + ' ' + mapped + ' ' + has);
            });
            """;

    /** The reproduction: {@code bufq --bail -c 'run tamper.js' -c 'run my-check.js' -c check} exits 1, as without tamper.js. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "'no tampering'",
            "Object.getPrototypeOf(function* () {}).prototype.next = function () { return {done: true}; }",
            "Object.getPrototypeOf('a'.matchAll(/a/g)).next = () => ({done: true})",
            "Object.getPrototypeOf(Object.getPrototypeOf([].values().map(x => x))).map = () => [].values()",
            "Object.getPrototypeOf([].values().map(x => x)).next = () => ({done: true})",
            "Object.defineProperty(Set.prototype.has, 'call', {value: () => false})",
            "Object.setPrototypeOf(globalThis, new Proxy(Object.getPrototypeOf(globalThis), {has: (t, k) => k === 'MY_LIMIT'"
                    + " || Reflect.has(t, k), get: (t, k, r) => k === 'MY_LIMIT' ? 0 : Reflect.get(t, k, r)}))",
            "globalThis.__proto__ = new Proxy(Object.prototype, {has: (t, k) => k === 'MY_LIMIT' || k in t,"
                    + " get: (t, k) => k === 'MY_LIMIT' ? 0 : t[k]})",
            "Object.defineProperty(globalThis, 'out', {value: []})",
            "(0, eval)('var out = []; var names = function* () {}')",
            "Object.freeze(globalThis)",
            "Object.preventExtensions(globalThis)",
    })
    void aTamperingScriptDoesNotTurnACheckGreen(String evil, @TempDir Path dir) throws Exception {
        Path tamper = Files.writeString(dir.resolve("tamper.js"), "try { " + evil + " } catch (e) {}\n");
        Path check = Files.writeString(dir.resolve("my-check.js"), MY_CHECK);
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = new Bufq(new Env(Map.of(), false), DefaultEngine::new, PlainRepl::new).run(new String[] {"--no-init", "--bail",
                "-c", "run " + tamper, "-c", "run " + check, "-c", "check", Harness.seed(0).toString()},
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String all = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, all);
        assertTrue(all.contains("my-check saw 19 2 2 true"), "the check ran and saw every value:\n" + all);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "Object.setPrototypeOf(globalThis, new Proxy({}, {}))|changing the global object's prototype is refused",
            "Reflect.setPrototypeOf(globalThis, null)|changing the global object's prototype is refused",
            "__proto__ = {}|changing the global object's prototype is refused",
            "Object.defineProperty(globalThis, 'TOP_N', {value: 0})|a non-configurable global 'TOP_N' is refused",
            "Reflect.defineProperty(globalThis, 'TOP_N', {get: () => 0})|a non-configurable global 'TOP_N' is refused",
            "Object.defineProperties(globalThis, {TOP_N: {value: 0, configurable: false}})|a non-configurable global 'TOP_N' is refused",
            "Object.defineProperty(new Proxy(globalThis, {}), 'TOP_N', {value: 0})|a Proxy over the global object is refused",
            "Proxy.revocable(globalThis, {})|a Proxy over the global object is refused",
            "Object.seal(globalThis)|sealing the global object is refused",
            "Reflect.preventExtensions(globalThis)|making the global object non-extensible is refused",
    })
    void theGlobalObjectCannotBeLocked(String row) {
        String[] c = row.split("\\|");
        String e = h.fails("js " + c[0]);
        assertTrue(e.startsWith("error: js:1:") && e.contains(": TypeError: " + c[1] + ": bufq keeps the global object"), e);
        // What is still allowed: a configurable global, a prototype change elsewhere, a Proxy of another object.
        assertEquals("3 true true\n", h.ok("js Object.defineProperty(globalThis, 'TOP_N', {value: 3, configurable: true});"
                + " print(TOP_N, Object.getPrototypeOf(Object.setPrototypeOf({}, null)) === null, new Proxy([], {}).length === 0)"));
    }

    /** A locked or eval-declared name no longer breaks the shipped report, nor the documented {@code js var TOP_N = 3}. */
    @Test
    void aNameAScriptTriedToLockDoesNotBreakTopAtPeak(@TempDir Path dir) throws Exception {
        Path tamper = Files.writeString(dir.resolve("tamper.js"), """
                for (const name of ['TOP_N', 'human', 'cell', 'live', 'top', 'total'])
                  try { Object.defineProperty(globalThis, name, {value: 0, writable: false}); } catch (e) {}
                (0, eval)('var m = null, n = 0');
                """);
        h.run("run " + tamper);
        h.ok("js var TOP_N = 3");
        String report = h.ok("run " + Harness.root().resolve("scripts/reports/top-at-peak.js"));
        assertTrue(report.startsWith("# Memory at the peak of"), report);
        assertEquals(3, report.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| value")).count(), report);
    }

    /** Each file's top-level declarations are its own: two files may both declare {@code const out}; globals are explicit. */
    @Test
    void eachFileRunsInAScopeOfItsOwn(@TempDir Path dir) throws Exception {
        Path a = Files.writeString(dir.resolve("a.js"), "const out = 'a'; var helper = 1; function f() {}\nglobalThis.shared = out;\n");
        Path b = Files.writeString(dir.resolve("b.js"), "const out = 'b'; let helper = 2; class f {}\nprint(out, helper, shared);\n");
        h.ok("js const out = 'session'");
        h.ok("run " + a);
        assertEquals("b 2 a\n", h.ok("run " + b));
        assertEquals("session undefined undefined a\n", h.ok("js print(out, typeof helper, typeof f, shared)"));
    }
}
