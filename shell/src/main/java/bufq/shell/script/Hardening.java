package bufq.shell.script;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Source;

/**
 * Freezes the JavaScript built-ins of a context before any user script runs, as a hardened realm
 * does, so that one script cannot change what the scripts after it see: with
 * {@code Array.prototype[Symbol.iterator]}, {@code Array.prototype.map} or {@code Object.keys}
 * replaced, a later check would silently look at nothing.
 *
 * <p>Every global present before user code runs is walked, not a list of names: its value is
 * frozen with its prototype chain and {@code prototype} (typed arrays' shared prototype included),
 * a namespace's constructors likewise ({@code Intl.NumberFormat}), and the global name becomes
 * non-writable and non-configurable ({@code parseInt}, {@code eval}, {@code Intl}), so no script can
 * rebind or shadow it. The methods of {@code Object.prototype}, {@code Function.prototype} and
 * {@code Array.prototype} (reached as {@code Object.prototype.hasOwnProperty.call(...)}) are frozen
 * too. The global object itself stays open: scripts define their own functions and variables there.
 *
 * <p>Freezing a prototype makes a plain assignment of an inherited name on an instance fail
 * ({@code err.name = 'X'}, {@code Foo.prototype.toString = ...}): the names ordinary code assigns
 * that way become accessors that define the property on the instance, as SES's "moderate"
 * override taming does. Runs once per context, in its set-up.
 */
final class Hardening {
    private Hardening() {}

    private static final String LOCKDOWN = """
            (function () {
              'use strict';
              const {getPrototypeOf, getOwnPropertyDescriptor, defineProperty, freeze} = Object;
              const {ownKeys, apply} = Reflect;
              const G = globalThis;

              // Inherited names that ordinary code assigns on instances keep working once frozen.
              function enableOverride(proto, names) {
                for (const name of names) {
                  const d = getOwnPropertyDescriptor(proto, name);
                  if (!d || !('value' in d) || !d.configurable) continue;
                  const value = d.value;
                  defineProperty(proto, name, {
                    get() { return value; },
                    set(v) {
                      if (this === proto) throw new TypeError("Cannot assign to read only property '" + String(name) + "' of a built-in prototype");
                      defineProperty(this, name, {value: v, writable: true, enumerable: true, configurable: true});
                    },
                    enumerable: d.enumerable, configurable: false,
                  });
                }
              }
              // A short list: reading an accessor costs a call, and the engine may run interpreted.
              enableOverride(Object.prototype, ['constructor', 'toString', 'valueOf', 'toLocaleString']);
              enableOverride(Function.prototype, ['constructor', 'toString']);
              enableOverride(Array.prototype, ['constructor', 'toString']);
              enableOverride(Promise.prototype, ['constructor']);
              for (const E of [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError,
                               typeof AggregateError === 'function' ? AggregateError : Error])
                enableOverride(E.prototype, ['constructor', 'name', 'message', 'toString']);

              // The global object stays open (scripts leave globals there for the next script), but
              // nothing may lock it: no non-configurable property a script adds, no frozen, sealed or
              // non-extensible global object, no other prototype (a Proxy there would answer every
              // name a later script looks up), and no Proxy over it (which would forward all of that).
              // The guards wrap the built-ins before they are frozen, so no script reaches the originals.
              const real = {defineProperty, defineProperties: Object.defineProperties, freeze,
                            seal: Object.seal, preventExtensions: Object.preventExtensions,
                            setPrototypeOf: Object.setPrototypeOf, reflectDefine: Reflect.defineProperty,
                            reflectPrevent: Reflect.preventExtensions, reflectSetProto: Reflect.setPrototypeOf};
              const RealProxy = Proxy;
              const refuse = what => new TypeError(what + ' is refused: bufq keeps the global object open and unlocked'
                  + ' for the scripts after this one');
              // A descriptor read once, as the built-in does, so a getter cannot answer the check and the define differently.
              function descriptor(d) {
                if (d === null || (typeof d !== 'object' && typeof d !== 'function'))
                  throw new TypeError('Property description must be an object: ' + String(d));
                const c = {};
                for (const f of ['enumerable', 'configurable', 'value', 'writable', 'get', 'set']) if (f in d) c[f] = d[f];
                return c;
              }
              function checkGlobalDefine(k, c) {
                const old = getOwnPropertyDescriptor(G, k);
                if (old !== undefined && !old.configurable) return;   // the built-in decides (bufq's own, undefined)
                const configurable = 'configurable' in c ? !!c.configurable : old !== undefined;
                if (!configurable) throw refuse("a non-configurable global '" + String(k) + "'");
              }
              const guards = {
                defineProperty(o, k, d) {
                  if (o !== G) return real.defineProperty(o, k, d);
                  const c = descriptor(d), key = typeof k === 'symbol' ? k : String(k);
                  checkGlobalDefine(key, c);
                  return real.defineProperty(o, key, c);
                },
                defineProperties(o, ps) {
                  if (o !== G) return real.defineProperties(o, ps);
                  const all = {};
                  for (const k of ownKeys(Object(ps))) {
                    const d = getOwnPropertyDescriptor(ps, k);
                    if (!d || !d.enumerable) continue;
                    const c = descriptor(ps[k]);
                    checkGlobalDefine(k, c);
                    real.defineProperty(all, k, {value: c, enumerable: true, writable: true, configurable: true});
                  }
                  return real.defineProperties(o, all);
                },
                freeze(o) { if (o === G) throw refuse('freezing the global object'); return real.freeze(o); },
                seal(o) { if (o === G) throw refuse('sealing the global object'); return real.seal(o); },
                preventExtensions(o) { if (o === G) throw refuse('making the global object non-extensible'); return real.preventExtensions(o); },
                setPrototypeOf(o, p) { if (o === G) throw refuse("changing the global object's prototype"); return real.setPrototypeOf(o, p); },
                reflectDefine(o, k, d) {
                  if (o !== G) return real.reflectDefine(o, k, d);
                  const c = descriptor(d), key = typeof k === 'symbol' ? k : String(k);
                  checkGlobalDefine(key, c);
                  return real.reflectDefine(o, key, c);
                },
                reflectPrevent(o) { if (o === G) throw refuse('making the global object non-extensible'); return real.reflectPrevent(o); },
                reflectSetProto(o, p) { if (o === G) throw refuse("changing the global object's prototype"); return real.reflectSetProto(o, p); },
                revocable(t, h) { if (t === G) throw refuse('a Proxy over the global object'); return RealProxy.revocable(t, h); },
              };
              const named = (fn, name) => real.defineProperty(fn, 'name', {value: name});
              for (const [k, from] of [['defineProperty', 'defineProperty'], ['defineProperties', 'defineProperties'], ['freeze', 'freeze'],
                                       ['seal', 'seal'], ['preventExtensions', 'preventExtensions'], ['setPrototypeOf', 'setPrototypeOf']])
                Object[k] = guards[from];
              Reflect.defineProperty = named(guards.reflectDefine, 'defineProperty');
              Reflect.preventExtensions = named(guards.reflectPrevent, 'preventExtensions');
              Reflect.setPrototypeOf = named(guards.reflectSetProto, 'setPrototypeOf');
              const proto = getOwnPropertyDescriptor(Object.prototype, '__proto__');
              if (proto && proto.set && proto.configurable) {
                const set = proto.set;
                const guarded = getOwnPropertyDescriptor({set __proto__(p) {
                  if (this === G) throw refuse("changing the global object's prototype");
                  apply(set, this, [p]);
                }}, '__proto__').set;
                real.defineProperty(Object.prototype, '__proto__', {get: proto.get, set: guarded, enumerable: false, configurable: true});
              }
              const SafeProxy = function Proxy(target, handler) {
                if (new.target === undefined) throw new TypeError("Constructor Proxy requires 'new'");
                if (target === G) throw refuse('a Proxy over the global object');
                return new RealProxy(target, handler);
              };
              real.defineProperty(SafeProxy, 'prototype', {value: undefined, writable: false});
              real.defineProperty(SafeProxy, 'length', {value: 2});
              SafeProxy.revocable = guards.revocable;
              real.defineProperty(G, 'Proxy', {value: SafeProxy, writable: true, enumerable: false, configurable: true});

              // Every object reachable from the globals, and from the intrinsics that only syntax or an
              // instance reaches (ECMA-262's table of well-known intrinsics and what instances hold:
              // generator, async function and async generator prototypes, the iterator prototypes of
              // arrays, maps, sets, strings, matchAll, iterator helpers and Intl.Segmenter, %ThrowTypeError%),
              // is frozen: each object and its prototype, and every property's value, getter and setter
              // (so Array.prototype[Symbol.unscopables] and String.prototype.slice too: no script gives a
              // built-in method its own 'call'). The walk is a worklist, not recursion, and skips the
              // global object and bufq's host objects (print, the bufq API: locked by bufq itself).
              const hidden = [function* () {}, async function () {}, async function* () {}, [][Symbol.iterator](),
                              new Map()[Symbol.iterator](), new Set()[Symbol.iterator](), ''[Symbol.iterator](),
                              /a/g[Symbol.matchAll]('a'), (getOwnPropertyDescriptor(Function.prototype, 'caller') || {}).get,
                              (getOwnPropertyDescriptor((function () { return arguments; })(), 'callee') || {}).get];
              if (typeof Iterator === 'function') {
                if (typeof Iterator.prototype.map === 'function') hidden.push([].values().map(x => x));
                if (typeof Iterator.from === 'function') hidden.push(Iterator.from({next() { return {done: true}; }}));
              }
              if (typeof Intl === 'object' && typeof Intl.Segmenter === 'function') {
                const segments = new Intl.Segmenter('en').segment('');
                hidden.push(segments, segments[Symbol.iterator]());
              }
              const own = new Set();
              for (const k of ownKeys(G)) {
                const d = getOwnPropertyDescriptor(G, k);
                if (!d.configurable && !d.writable && 'value' in d && typeof d.value !== 'number' && d.value !== undefined) own.add(d.value);
              }
              const seen = new Set([G]);
              const work = [...hidden];
              for (const k of ownKeys(G)) {
                const d = getOwnPropertyDescriptor(G, k);
                if ('value' in d) work.push(d.value); else work.push(d.get, d.set);
              }
              while (work.length > 0) {
                const v = work.pop();
                if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v) || own.has(v)) continue;
                seen.add(v);
                try {
                  real.freeze(v);
                } catch (e) {
                  continue;   // a host object: bufq locks its own
                }
                work.push(getPrototypeOf(v));
                for (const k of ownKeys(v)) {
                  const d = getOwnPropertyDescriptor(v, k);
                  if (d === undefined) continue;
                  if ('value' in d) work.push(d.value); else work.push(d.get, d.set);
                }
              }
              // Every global name that exists now becomes non-writable and non-configurable, so no
              // script rebinds or shadows parseInt, Intl or Int8Array.
              for (const k of ownKeys(G)) {
                const d = getOwnPropertyDescriptor(G, k);
                if (!d.configurable && !d.writable) continue;   // bufq's own (locked when defined), undefined, NaN
                if ('value' in d) real.defineProperty(G, k, {value: d.value, writable: false, enumerable: d.enumerable, configurable: false});
                else real.defineProperty(G, k, {get: d.get, set: d.set, enumerable: d.enumerable, configurable: false});
              }
            })();
            """;

    /** Freezes the context's built-ins; call after bufq's globals are defined, before any user script. */
    static void lockdown(Context context) {
        // Internal: an error a guard throws names the user's line that called it, not the guard's.
        context.eval(Source.newBuilder("js", LOCKDOWN, "<bufq lockdown>").internal(true).buildLiteral());
    }
}
