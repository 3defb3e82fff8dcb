package bufq.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static bufq.arch.ClassCycles.cycles;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's architecture rules, each in a nested class of its own, on one import of the engine's
 * main classes. One class, so that one test JVM runs them all: on the test JVM's client compiler the
 * first ArchUnit import in a JVM costs 2-3 s of CPU and each later one about 1 s, and as three
 * classes they ran in both test JVMs and imported three times.
 */
class ArchitectureTest {
    /** All of {@code bufq}, main code only. */
    static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("bufq");

    /** The two fixture packages under {@code bufq.arch.cycle}, which use each other. */
    static JavaClasses cyclicFixture() {
        return new ClassFileImporter().importPackages("bufq.arch.cycle");
    }

    /**
     * The engine's packages point one way (dump -> model -> eval/analysis -> format, assist above
     * eval): no package may reach itself again through others, and nothing here knows the shell's
     * libraries.
     */
    @Nested
    class PackageCycleTest {
        /** Every package its own slice: {@code bufq.analysis} and {@code bufq.analysis.diff} are two. */
        static final ArchRule NO_CYCLES = slices().matching("bufq.(**)").should().beFreeOfCycles();

        @Test
        void noPackageCycles() {
            NO_CYCLES.check(ENGINE);
        }

        /** The engine knows no terminal, no script engine and no SQL engine: the shell brings them. */
        @Test
        void noJLineGraalVmOrDuckDb() {
            noClasses().should().dependOnClassesThat().resideInAnyPackage("org.jline..", "org.graalvm..", "org.duckdb..", "java.sql..")
                    .check(ENGINE);
        }

        /** The rule can fail: two test packages that use each other are a cycle it reports. */
        @Test
        void theRuleCatchesACycle() {
            JavaClasses cyclic = cyclicFixture();
            assertTrue(cyclic.size() >= 2, "the fixture classes were found");
            var result = NO_CYCLES.evaluate(cyclic);
            assertTrue(result.hasViolation(), "a -> b -> a is reported");
            assertFalse(result.getFailureReport().isEmpty());
        }
    }

    /**
     * The engine's packages in seven groups whose dependencies point one way:
     * <pre>
     *   api (the engine API: what a client asks)
     *      |
     *   analyses (analysis.peak, blame, waste, timeline, map, check, why, diff, whatif, advise, fit, forecast, oom; export)
     *      |  \
     *   query (lang, eval)              readers (dump..)
     *      |        \                        |
     *   analysis.liveness, category, sharding |
     *        \       |                       |
     *         model  &lt;---------------------+
     *           |
     *   formats (format, table): the lowest, any group may print through them
     *
     *   util (util, units): beside them all, any group may use it; it uses none
     * </pre>
     * Cycles between and inside packages are {@link PackageCycleTest}'s; this test holds the groups.
     * A package that belongs to no group fails here, so a new one is placed on purpose.
     */
    @Nested
    class LayerTest {
        /** The analyses: every package of bufq.analysis but liveness, category and sharding, which the query layer uses, and the exports. */
        static final String[] ANALYSES = {"bufq.analysis", "bufq.analysis.peak..", "bufq.analysis.blame..", "bufq.analysis.why..",
                "bufq.analysis.waste..", "bufq.analysis.timeline..", "bufq.analysis.map..", "bufq.analysis.check..",
                "bufq.analysis.diff..", "bufq.analysis.whatif..", "bufq.analysis.advise..", "bufq.analysis.fit..",
                "bufq.analysis.forecast..", "bufq.analysis.oom..", "bufq.export.."};

        static LayeredArchitecture groups() {
            return layeredArchitecture().consideringOnlyDependenciesInLayers()
                    .layer("readers").definedBy("bufq.dump..")
                    .layer("model").definedBy("bufq.model..")
                    .layer("liveness").definedBy("bufq.analysis.liveness..", "bufq.analysis.category..", "bufq.analysis.sharding..")
                    .layer("query").definedBy("bufq.lang..", "bufq.eval..")
                    .layer("analyses").definedBy(ANALYSES)
                    .layer("formats").definedBy("bufq.format..", "bufq.table..")
                    .layer("util").definedBy("bufq.util..", "bufq.units..")
                    .layer("api").definedBy("bufq.api..")
                    .whereLayer("api").mayNotBeAccessedByAnyLayer()
                    .whereLayer("readers").mayOnlyBeAccessedByLayers("api")
                    .whereLayer("analyses").mayOnlyBeAccessedByLayers("api")
                    .whereLayer("query").mayOnlyBeAccessedByLayers("analyses", "api")
                    .whereLayer("liveness").mayOnlyBeAccessedByLayers("query", "analyses", "api")
                    .whereLayer("model").mayOnlyBeAccessedByLayers("readers", "liveness", "query", "analyses", "api")
                    .whereLayer("formats").mayOnlyBeAccessedByLayers("readers", "model", "liveness", "query", "analyses", "api");
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
                boolean in = p.matches("bufq\\.(dump|model|lang|eval|analysis|export|format|table|util|units|api)(\\..*)?");
                (in ? grouped : loose).add(p);
            }
            assertTrue(loose.isEmpty(), "packages in no group: " + loose);
            assertTrue(grouped.contains("bufq.analysis.liveness"), "the import found the engine: " + grouped);
        }

        /** The rule can fail: the test fixture's two packages, each using the other, break any one-way order. */
        @Test
        void theRuleCatchesAnUpwardDependency() {
            JavaClasses cyclic = cyclicFixture();
            var rule = layeredArchitecture().consideringOnlyDependenciesInLayers()
                    .layer("low").definedBy("bufq.arch.cycle.a..")
                    .layer("high").definedBy("bufq.arch.cycle.b..")
                    .whereLayer("high").mayNotBeAccessedByAnyLayer();
            assertTrue(rule.evaluate(cyclic).hasViolation(), "a -> b with b the higher group is reported");
        }
    }

    /**
     * The engine's classes form no cycle, inside a package or across: {@link PackageCycleTest} sees
     * packages only, so classes of one package that all reached each other passed it (six in
     * {@code bufq.dump}, seven in {@code bufq.eval}, and pairs and rings in the analyses, the model
     * and the out-of-memory reader, all broken since). A nested or anonymous class counts as
     * its top-level class. No cycle is known, so none is allowed: a new one fails this test.
     */
    @Nested
    class ClassCycleTest {
        @Test
        void theEnginesClassesHaveNoCycles() {
            assertTrue(ENGINE.size() > 300, "the import found the engine: " + ENGINE.size());
            Set<String> packages = ENGINE.stream().map(c -> c.getPackageName()).collect(Collectors.toSet());
            assertTrue(packages.containsAll(Set.of("bufq.dump", "bufq.model", "bufq.eval", "bufq.analysis.peak", "bufq.format")),
                    "the import holds every layer: " + packages);
            assertEquals(List.of(), cycles(ENGINE, "bufq"), "classes that reach themselves again");
        }

        /** The check can fail: the fixture's two classes use each other. */
        @Test
        void theCheckCatchesACycle() {
            assertEquals(List.of(Set.of("bufq.arch.cycle.a.A", "bufq.arch.cycle.b.B")), cycles(cyclicFixture(), "bufq.arch.cycle"));
        }
    }
}
