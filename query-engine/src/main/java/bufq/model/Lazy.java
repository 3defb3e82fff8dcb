package bufq.model;

import java.util.function.Supplier;

/**
 * A value derived from an immutable module, computed on first use by exactly one thread and then
 * shared. A failed computation is not kept: the next caller tries again and fails the same way.
 */
public final class Lazy<T> {
    private Supplier<T> compute;   // dropped once computed, so it holds nothing alive
    private volatile T value;

    public Lazy(Supplier<T> compute) { this.compute = compute; }

    public T get() {
        T v = value;
        if (v == null) {
            synchronized (this) {
                v = value;
                if (v == null) {
                    value = v = compute.get();
                    compute = null;
                }
            }
        }
        return v;
    }
}
