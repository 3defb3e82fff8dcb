package bufq.dump;

import bufq.model.Shape;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One module's shared strings and shapes: equal names and shape texts become one instance, so the
 * loaded model stays smaller than the dump text. Safe for the parallel section parsers.
 */
final class Interner {
    private final ConcurrentHashMap<String, String> names = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Shape> shapeCache = new ConcurrentHashMap<>();
    private final ShapeParser shapes = new ShapeParser(shapeCache);

    String name(String s) {
        String prev = names.putIfAbsent(s, s);
        return prev != null ? prev : s;
    }

    /** @throws ShapeSyntaxException on odd text */
    Shape shape(String text) {
        return shapes.shape(text);
    }
}
