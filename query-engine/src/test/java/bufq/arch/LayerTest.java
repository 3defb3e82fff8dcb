package bufq.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's packages in six groups whose dependencies point one way:
 * <pre>
 *   analyses (analysis.., whatif, advise, fit, oom, export)
 *      |  \
 *   query (lang, eval, assist)      readers (dump..)
 *      |        \                        |
 *   liveness     |                       |
 *        \       |                       |
 *         model  &lt;---------------------+
 *           |
 *   formats (format, table): the lowest, any group may print through them
 *
 *   util: beside them all, any group may use it; it uses none
 * </pre>
 * Cycles between and inside packages are {@link PackageCycleTest}'s; this test holds the groups.
 * A package that belongs to no group fails here, so a new one is placed on purpose.
 */
class LayerTest {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("bufq");

    static LayeredArchitecture groups() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("readers").definedBy("bufq.dump..")
                .layer("model").definedBy("bufq.model..")
                .layer("liveness").definedBy("bufq.liveness..")
                .layer("query").definedBy("bufq.lang..", "bufq.eval..", "bufq.assist..")
                .layer("analyses").definedBy("bufq.analysis..", "bufq.whatif..", "bufq.advise..", "bufq.fit..",
                        "bufq.oom..", "bufq.export..")
                .layer("formats").definedBy("bufq.format..", "bufq.table..")
                .layer("util").definedBy("bufq.util..")
                .whereLayer("readers").mayNotBeAccessedByAnyLayer()
                .whereLayer("analyses").mayNotBeAccessedByAnyLayer()
                .whereLayer("query").mayOnlyBeAccessedByLayers("analyses")
                .whereLayer("liveness").mayOnlyBeAccessedByLayers("query", "analyses")
                .whereLayer("model").mayOnlyBeAccessedByLayers("readers", "liveness", "query", "analyses")
                .whereLayer("formats").mayOnlyBeAccessedByLayers("readers", "model", "liveness", "query", "analyses");
    }

    @Test
    void groupsPointOneWay() {
        groups().check(ENGINE);
    }

    @Test
    void everyPackageIsInAGroup() {
        var grouped = new java.util.TreeSet<String>();
        var loose = new java.util.TreeSet<String>();
        for (var c : ENGINE) {
            String p = c.getPackageName();
            if (p.equals("bufq") || p.startsWith("bufq.arch")) continue;
            boolean in = p.matches("bufq\\.(dump|model|liveness|lang|eval|assist|analysis|whatif|advise|fit|oom|export|format|table|util)(\\..*)?");
            (in ? grouped : loose).add(p);
        }
        assertTrue(loose.isEmpty(), "packages in no group: " + loose);
        assertTrue(grouped.contains("bufq.liveness"), "the import found the engine: " + grouped);
    }

    /** The rule can fail: the test fixture's two packages, each using the other, break any one-way order. */
    @Test
    void theRuleCatchesAnUpwardDependency() {
        JavaClasses cyclic = new ClassFileImporter().importPackages("bufq.arch.cycle");
        var rule = layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("low").definedBy("bufq.arch.cycle.a..")
                .layer("high").definedBy("bufq.arch.cycle.b..")
                .whereLayer("high").mayNotBeAccessedByAnyLayer();
        assertTrue(rule.evaluate(cyclic).hasViolation(), "a -> b with b the higher group is reported");
    }
}
