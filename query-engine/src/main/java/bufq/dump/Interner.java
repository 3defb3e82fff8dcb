package bufq.dump;

import bufq.model.Shape;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One module's shared strings and shapes: equal names and shape texts become one instance, so the
 * loaded model stays smaller than the dump text. Safe for the parallel section parsers.
 */
final class Interner {
    private final ConcurrentHashMap<String, String> names;
    private final ConcurrentHashMap<String, Shape> shapeCache = new ConcurrentHashMap<>();
    private final ShapeParser shapes = new ShapeParser(shapeCache);

    Interner() { this(16); }

    /** @param expectedNames presizes the name table (growing a big concurrent map is costly) */
    Interner(int expectedNames) {
        names = new ConcurrentHashMap<>(Math.max(16, expectedNames));
    }

    String name(String s) {
        String prev = names.putIfAbsent(s, s);
        return prev != null ? prev : s;
    }

    /** @throws ShapeSyntaxException on odd text */
    Shape shape(String text) {
        return shapes.shape(text);
    }
}
