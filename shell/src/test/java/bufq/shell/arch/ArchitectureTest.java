package bufq.shell.arch;

import bufq.arch.ClassCycles;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

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
     * The shell is a thin client of the engine: its main classes reach only the engine packages listed
     * here, at most ten, counted by exact package ({@code bufq.lang} and {@code bufq.lang.assist} are
     * two): the API ({@code bufq.api}) and the values it takes and returns. An analysis a command needs
     * is reached through an API entry point, never imported.
     */
    @Nested
    class EngineSurfaceTest {
        /** The engine packages the shell may use, and why each. */
        static final Map<String, String> ALLOWED = new TreeMap<>(Map.of(
                "bufq.api", "the engine API: every question a command or script asks",
                "bufq.model", "the loaded module and its values, which results and scripts show",
                "bufq.lang", "queries compiled, their diagnostics and the lexer",
                "bufq.lang.assist", "completion and highlighting from the query grammar",
                "bufq.eval", "the catalog, selections and rows a query runs on",
                "bufq.table", "the typed tables every answer is",
                "bufq.format", "the formatters that print tables",
                "bufq.units", "sizes as the user types and reads them",
                "bufq.dump.file", "dump files as found, before they are read"));

        @Test
        void theShellReachesOnlyTheEnginePackagesItIsAllowed() {
            assertTrue(ALLOWED.size() <= 10, "at most ten engine packages: " + ALLOWED.keySet());
            Map<String, Set<String>> reached = new TreeMap<>();   // engine package -> "shell class -> engine class"
            for (var c : SHELL) {
                for (var d : c.getDirectDependenciesFromSelf()) {
                    String pkg = d.getTargetClass().getPackageName();
                    if (!pkg.startsWith("bufq.") || pkg.startsWith("bufq.shell")) continue;
                    reached.computeIfAbsent(pkg, k -> new TreeSet<>())
                            .add(d.getOriginClass().getName() + " -> " + d.getTargetClass().getName());
                }
            }
            assertTrue(reached.containsKey("bufq.api"), "the import saw the engine: " + reached.keySet());
            Map<String, Set<String>> outside = new TreeMap<>(reached);
            outside.keySet().removeAll(ALLOWED.keySet());
            StringBuilder why = new StringBuilder("the shell reaches engine packages it is not allowed (allowed: "
                    + ALLOWED.keySet() + "); ask bufq.api for the answer instead (or, on purpose, list the package in ALLOWED):");
            outside.forEach((pkg, uses) -> {
                why.append("\n  ").append(pkg).append(":");
                uses.stream().limit(5).forEach(u -> why.append("\n    ").append(u));
                if (uses.size() > 5) why.append("\n    ... and ").append(uses.size() - 5).append(" more");
            });
            assertTrue(outside.isEmpty(), why.toString());
        }
    }
}
