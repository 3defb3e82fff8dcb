package bufq.shell.script;

import org.graalvm.polyglot.Context;

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
              const ownKeys = Reflect.ownKeys;
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

              // Every global that exists now (the built-ins and bufq's own), whatever it is called:
              // its value frozen with its prototype chain and its 'prototype' (so Int8Array's shared
              // %TypedArray% prototype too), a namespace's members likewise (Intl.NumberFormat and its
              // prototype), and the global name made non-writable and non-configurable, so no script
              // rebinds or shadows parseInt, Intl or Int8Array. Methods are not walked one by one:
              // that realises hundreds of lazily made built-ins and doubled JavaScript's start-up;
              // with their prototype frozen no script can replace one.
              const seen = new Set([G]);
              function harden(v, members) {
                if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v)) return;
                seen.add(v);
                let inner = [];
                try {
                  freeze(v);
                  if (typeof v === 'function') {
                    const d = getOwnPropertyDescriptor(v, 'prototype');
                    if (d && 'value' in d) inner.push(d.value);
                  } else if (members) {
                    // Members named as constructors are (Intl.NumberFormat); reading every member's
                    // descriptor realises each lazily made method, which cost a third more start-up.
                    for (const k of ownKeys(v)) {
                      if (typeof k !== 'string' || k[0] < 'A' || k[0] > 'Z') continue;
                      const d = getOwnPropertyDescriptor(v, k);
                      if ('value' in d) inner.push(d.value);
                    }
                  }
                  inner.push(getPrototypeOf(v));
                } catch (e) {
                  return;   // a host object (print, bufq's API): locked by bufq itself
                }
                for (const o of inner) harden(o, false);
              }
              const arrayIterator = getPrototypeOf([][Symbol.iterator]());
              for (const o of [arrayIterator, new Map()[Symbol.iterator](), new Set()[Symbol.iterator](), ''[Symbol.iterator]()])
                harden(o, false);
              // The methods reached as Object.prototype.hasOwnProperty.call(...), Array.prototype.slice.call(...):
              // frozen too, so no script gives one of them its own 'call'.
              for (const proto of [Object.prototype, Function.prototype, Array.prototype]) {
                for (const k of ownKeys(proto)) {
                  const d = getOwnPropertyDescriptor(proto, k);
                  if (typeof d.value === 'function') freeze(d.value);
                }
              }
              for (const k of ownKeys(G)) {
                const d = getOwnPropertyDescriptor(G, k);
                if (!d.configurable && !d.writable) continue;   // bufq's own (locked when defined), undefined, NaN
                if ('value' in d) {
                  harden(d.value, true);
                  defineProperty(G, k, {value: d.value, writable: false, enumerable: d.enumerable, configurable: false});
                } else {
                  harden(d.get, false);
                  harden(d.set, false);
                  defineProperty(G, k, {get: d.get, set: d.set, enumerable: d.enumerable, configurable: false});
                }
              }
            })();
            """;

    /** Freezes the context's built-ins; call after bufq's globals are defined, before any user script. */
    static void lockdown(Context context) {
        context.eval("js", LOCKDOWN);
    }
}
