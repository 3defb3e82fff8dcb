package bufq.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static bufq.arch.ClassCycles.cycles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's classes form no cycle, inside a package or across: {@link PackageCycleTest} sees
 * packages only, so classes of one package that all reached each other passed it (six in
 * {@code bufq.dump}, seven in {@code bufq.eval}, and pairs and rings in the analyses, the model
 * and the out-of-memory reader, all broken since; issue 33). A nested or anonymous class counts as
 * its top-level class. No cycle is known, so none is allowed: a new one fails this test.
 */
class ClassCycleTest {
    @Test
    void theEnginesClassesHaveNoCycles() {
        JavaClasses engine = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("bufq");
        assertTrue(engine.size() > 300, "the import found the engine: " + engine.size());
        Set<String> packages = engine.stream().map(c -> c.getPackageName()).collect(Collectors.toSet());
        assertTrue(packages.containsAll(Set.of("bufq.dump", "bufq.model", "bufq.eval", "bufq.analysis", "bufq.format")),
                "the import holds every layer: " + packages);
        assertEquals(List.of(), cycles(engine, "bufq"), "classes that reach themselves again");
    }

    /** The check can fail: the fixture's two classes use each other. */
    @Test
    void theCheckCatchesACycle() {
        JavaClasses cyclic = new ClassFileImporter().importPackages("bufq.arch.cycle");
        assertEquals(List.of(Set.of("bufq.arch.cycle.a.A", "bufq.arch.cycle.b.B")), cycles(cyclic, "bufq.arch.cycle"));
    }
}
