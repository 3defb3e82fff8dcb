package bufq.dump;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** Paths of the small dumps under {@code src/test/resources/fixtures}. */
final class Fixtures {
    private Fixtures() {}

    static Path path(String relative) {
        try {
            return Path.of(Fixtures.class.getResource("/fixtures").toURI()).resolve(relative);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
