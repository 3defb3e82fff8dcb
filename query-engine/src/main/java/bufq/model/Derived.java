package bufq.model;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What packages above the model derive from one module (its liveness, its index by time), in one
 * holder per module: each kind computed once on first use and shared by the module's copies under
 * other handles. The model names no algorithm; a deriving package passes its own kind and
 * computation, so data stays below the algorithms that read it. The holder is handed its owner on
 * each call rather than knowing its type, so the module uses it and it needs nothing of the module.
 */
final class Derived {
    private final ConcurrentHashMap<Class<?>, Lazy<?>> byKind = new ConcurrentHashMap<>();

    /** The module's {@code kind}, computed by {@code compute} when first asked (a failure is not kept). */
    <M, T> T get(M owner, Class<T> kind, Function<? super M, ? extends T> compute) {
        // Only the cheap Lazy is made inside the map's lock; the computation runs outside it, so a
        // computation may ask for another kind of the same module.
        Lazy<?> lazy = byKind.computeIfAbsent(kind, k -> new Lazy<>(() -> compute.apply(owner)));
        return kind.cast(lazy.get());
    }
}
