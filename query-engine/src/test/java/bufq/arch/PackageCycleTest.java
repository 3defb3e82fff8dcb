package bufq.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's packages point one way (dump -> model -> eval/analysis -> format, assist above
 * eval): no package may reach itself again through others, and nothing here knows the shell's
 * libraries.
 */
class PackageCycleTest {
    /** Every package its own slice: {@code bufq.analysis} and {@code bufq.analysis.diff} are two. */
    static final ArchRule NO_CYCLES = slices().matching("bufq.(**)").should().beFreeOfCycles();

    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("bufq");

    @Test
    void noPackageCycles() {
        NO_CYCLES.check(ENGINE);
    }

    @Test
    void noJLineOrGraalVm() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.jline..", "org.graalvm..").check(ENGINE);
    }

    /** The rule can fail: two test packages that use each other are a cycle it reports. */
    @Test
    void theRuleCatchesACycle() {
        JavaClasses cyclic = new ClassFileImporter().importPackages("bufq.arch.cycle");
        assertTrue(cyclic.size() >= 2, "the fixture classes were found");
        var result = NO_CYCLES.evaluate(cyclic);
        assertTrue(result.hasViolation(), "a -> b -> a is reported");
        assertFalse(result.getFailureReport().isEmpty());
    }
}
