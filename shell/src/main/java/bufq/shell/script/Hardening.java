package bufq.shell.script;

import org.graalvm.polyglot.Context;

/**
 * Freezes the JavaScript built-ins of a context before any user script runs, as a hardened realm
 * does, so that one script cannot change what the scripts after it see: with
 * {@code Array.prototype[Symbol.iterator]}, {@code Array.prototype.map} or {@code Object.keys}
 * replaced, a later check would silently look at nothing.
 *
 * <p>The built-ins scripts use (constructors, their prototypes, {@code JSON}, {@code Math},
 * {@code Reflect}, {@code console}, the array, map, set and string iterator prototypes) are frozen,
 * as are the methods of {@code Object.prototype}, {@code Function.prototype} and
 * {@code Array.prototype} (reached as {@code Object.prototype.hasOwnProperty.call(...)}), and the
 * global names of constructors and namespaces ({@code Array}, {@code Map}, {@code JSON}, ...) become
 * non-writable and non-configurable, so no script can rebind or shadow them. The global object
 * itself stays open: scripts define their own functions and variables there.
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

              // The built-ins scripts use, and the iterator prototypes (no global names: reached
              // through instances), frozen. Not a deep walk of every intrinsic (typed arrays, Intl,
              // generator prototypes, each method): that realises ~800 lazily made built-ins and
              // made JavaScript's start-up half as slow again (this costs about 0.2 s of CPU).
              const roots = [Object, Function, Array, String, Number, Boolean, Symbol, BigInt, Map, Set, WeakMap, WeakSet,
                             Promise, RegExp, Date, Proxy, JSON, Math, Reflect, Error, EvalError, RangeError, ReferenceError,
                             SyntaxError, TypeError, URIError, console];
              for (const C of roots.slice()) if (typeof C === 'function' && C.prototype) roots.push(C.prototype);
              const arrayIterator = getPrototypeOf([][Symbol.iterator]());
              roots.push(arrayIterator, getPrototypeOf(arrayIterator), getPrototypeOf(new Map()[Symbol.iterator]()),
                         getPrototypeOf(new Set()[Symbol.iterator]()), getPrototypeOf(''[Symbol.iterator]()));
              for (const o of roots) freeze(o);
              // The methods reached as Object.prototype.hasOwnProperty.call(...), Array.prototype.slice.call(...):
              // frozen too, so no script gives one of them its own 'call'.
              for (const proto of [Object.prototype, Function.prototype, Array.prototype]) {
                for (const k of ownKeys(proto)) {
                  const d = getOwnPropertyDescriptor(proto, k);
                  if (typeof d.value === 'function') freeze(d.value);
                }
              }

              // The names of constructors and namespaces: no rebinding, no shadowing by a later script.
              for (const k of ['Object', 'Function', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'Map', 'Set',
                               'WeakMap', 'WeakSet', 'WeakRef', 'Promise', 'RegExp', 'Date', 'Proxy', 'JSON', 'Math', 'Reflect',
                               'Error', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError',
                               'AggregateError', 'Iterator', 'Intl', 'console', 'globalThis']) {
                const d = getOwnPropertyDescriptor(G, k);
                if (d && d.configurable && 'value' in d) defineProperty(G, k, {value: d.value, writable: false, enumerable: d.enumerable, configurable: false});
              }
            })();
            """;

    /** Freezes the context's built-ins; call after bufq's globals are defined, before any user script. */
    static void lockdown(Context context) {
        context.eval("js", LOCKDOWN);
    }
}
