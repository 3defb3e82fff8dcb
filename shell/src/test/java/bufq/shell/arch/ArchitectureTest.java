package bufq.shell.arch;

import bufq.arch.ClassCycles;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shell's architecture rules, each in a nested class of its own, on one import of the shell's
 * main classes. One class, so that one test JVM runs them all: on the test JVM's client compiler the
 * first ArchUnit import in a JVM costs 2-3 s of CPU, and as two classes they ran in both test JVMs
 * and imported twice.
 */
class ArchitectureTest {
    /** All of {@code bufq.shell}, main code only. */
    static final JavaClasses SHELL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("bufq.shell");

    /**
     * The shell is a one-way graph with one wiring point: {@code cli} builds the engine, the commands,
     * the script engine and the REPL and hands them to the session ({@code run}: the shell, the
     * statement runner, init.js); {@code command}, {@code repl} and {@code script} see it through
     * {@code api} (what commands and scripts see), over {@code statement} (reading statements, their
     * kinds, pastes, deadlines) and {@code session} (the session's modules, settings and output).
     */
    @Nested
    class PackageCycleTest {
        static final ArchRule NO_CYCLES = slices().matching("bufq.(**)").should().beFreeOfCycles();

        @Test
        void noPackageCycles() {
            NO_CYCLES.check(SHELL);
        }

        @Test
        void theSessionKnowsNoImplementation() {
            noClasses().that().resideInAnyPackage("bufq.shell.session..", "bufq.shell.statement..", "bufq.shell.api..",
                            "bufq.shell.run..")
                    .should().dependOnClassesThat().resideInAnyPackage(
                            "bufq.shell.cli..", "bufq.shell.command..", "bufq.shell.repl..", "bufq.shell.script..")
                    .check(SHELL);
        }

        @Test
        void onlyTheCommandLineWires() {
            noClasses().that().resideInAnyPackage("bufq.shell.command..", "bufq.shell.repl..", "bufq.shell.script..")
                    .should().dependOnClassesThat().resideInAPackage("bufq.shell.cli..")
                    .check(SHELL);
        }

        /**
         * Commands see the session through {@code CommandContext} (modules, settings, output, and the
         * session-steering role), wired once; none reaches for the whole shell.
         */
        @Test
        void noCommandDependsOnTheShell() {
            noClasses().that().resideInAPackage("bufq.shell.command..")
                    .should().dependOnClassesThat().resideInAPackage("bufq.shell.run..")
                    .check(SHELL);
        }

        /** The statement's lifecycle on the printer (its heading, diagnostic, end) is the runner's alone. */
        @Test
        void onlyTheSessionEndsAStatement() {
            noClasses().that().resideInAnyPackage("bufq.shell.command..", "bufq.shell.script..", "bufq.shell.repl..")
                    .should().callMethodWhere(com.tngtech.archunit.base.DescribedPredicate.describe("a statement's lifecycle on the printer",
                            c -> c.getTarget().getOwner().getFullName().equals("bufq.shell.session.Printer")
                                    && java.util.Set.of("setStatement", "endStatement", "endDocument", "setLocation", "diagnostic")
                                    .contains(c.getTarget().getName())))
                    .check(SHELL);
        }

        /**
         * Scripts see the session through {@code ScriptContext} (engine, settings, modules, output, the
         * user's environment, a deferred init.js), as commands see theirs; the REPL keeps the shell.
         */
        @Test
        void noScriptDependsOnTheShell() {
            noClasses().that().resideInAPackage("bufq.shell.script..")
                    .should().dependOnClassesThat().resideInAPackage("bufq.shell.run..")
                    .check(SHELL);
        }

        /**
         * DuckDB (and JDBC) only in {@code bufq.shell.sql}, whose first use loads it: a run that asks no
         * SQL loads none of its classes (LazyDuckDbTest).
         */
        @Test
        void onlyTheSqlPackageKnowsDuckDb() {
            noClasses().that().resideOutsideOfPackage("bufq.shell.sql..")
                    .should().dependOnClassesThat().resideInAnyPackage("org.duckdb..", "java.sql..")
                    .check(SHELL);
        }

        /** The import found the shell's classes (a rule over nothing would pass). */
        @Test
        void theShellWasImported() {
            assertTrue(SHELL.containPackage("bufq.shell.session") && SHELL.containPackage("bufq.shell.cli"));
        }
    }

    /**
     * The shell's classes form no cycle beyond the known ones, counted as the engine's are
     * ({@link ClassCycles}: top-level classes, nested ones counting as theirs). {@link PackageCycleTest}
     * sees packages only.
     */
    @Nested
    class ClassCycleTest {
        /**
         * The cycles left: this list may only shrink, and is empty. A new cycle fails the
         * test. The last two went by narrowing roles: help sees the commands as CommandDocs, not the
         * runnable table, and the objects scripts see hold a JsHost, not the context that makes them.
         */
        static final List<Set<String>> KNOWN = List.of();

        @Test
        void theShellsClassesHaveNoCyclesButTheKnown() {
            assertTrue(SHELL.size() > 100, "the import found the shell: " + SHELL.size());
            assertEquals(KNOWN, ClassCycles.cycles(SHELL, "bufq.shell"), "classes that reach themselves again");
        }
    }

    /**
     * The shell is a client of the engine's surface: its main classes reach at most ten of the
     * engine's top-level packages ({@code bufq.api}, {@code bufq.analysis}, {@code bufq.table}, ...).
     */
    @Nested
    class EngineSurfaceTest {
        @Test
        void theShellReachesAtMostTenTopLevelEnginePackages() {
            Set<String> reached = new java.util.TreeSet<>();
            for (var c : SHELL) {
                for (var d : c.getDirectDependenciesFromSelf()) {
                    String pkg = d.getTargetClass().getPackageName();
                    if (!pkg.startsWith("bufq.") || pkg.startsWith("bufq.shell")) continue;
                    String[] parts = pkg.split("\\.");
                    reached.add(parts[0] + "." + parts[1]);
                }
            }
            assertTrue(reached.contains("bufq.api"), "the import saw the engine: " + reached);
            assertTrue(reached.size() <= 10, "top-level engine packages the shell reaches: " + reached);
        }
    }
}
