package bufq.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * Notes which tests ask for the corpus ({@link Corpus}), so that CI's second run, the one with the
 * corpus beside the clone, runs exactly those (the first run, on a bare clone, has already
 * run every other test once). Registered for every test class by JUnit's extension autodetection
 * (the parent pom turns it on; {@code META-INF/services} names this class).
 *
 * <p>For each test class that asked, one file {@code target/corpus-tests/CLASS} (under the module
 * the tests ran in, or {@code bufq.corpusTests} if set) lists the test methods that asked, one a
 * line, or holds {@code *} when the class asked outside its methods (a static field, a
 * {@code @BeforeAll}): then every test of it needs the corpus. A {@code @TestFactory} or
 * parameterized method counts as one: its dynamic tests run inside it.
 */
public final class CorpusUseRecorder implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {
    /** The whole class needs the corpus. */
    public static final String WHOLE_CLASS = "*";

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(CorpusUseRecorder.class);

    /** What one test class asked; kept in the class's store, so classes run side by side do not mix. */
    private static final class Asked {
        long seen = Corpus.asked();
        final Set<String> methods = new TreeSet<>();
        boolean wholeClass;

        /** Whether the corpus was asked for since the last look. */
        boolean moved() {
            long now = Corpus.asked();
            boolean moved = now != seen;
            seen = now;
            return moved;
        }
    }

    private static Asked asked(ExtensionContext context) {
        return context.getRoot().getStore(NS).getOrComputeIfAbsent(context.getRequiredTestClass().getName(), k -> new Asked(), Asked.class);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        asked(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Asked a = asked(context);
        if (a.moved()) a.wholeClass = true; // between tests: the class's set-up or static fields
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Asked a = asked(context);
        if (a.moved()) a.methods.add(context.getRequiredTestMethod().getName());
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        Asked a = asked(context);
        if (a.moved()) a.wholeClass = true;
        if (!a.wholeClass && a.methods.isEmpty()) return;
        Path dir = Path.of(System.getProperty("bufq.corpusTests", "target/corpus-tests"));
        Files.createDirectories(dir);
        String text = a.wholeClass ? WHOLE_CLASS + "\n" : String.join("\n", a.methods) + "\n";
        Files.writeString(dir.resolve(context.getRequiredTestClass().getName()), text);
    }
}
