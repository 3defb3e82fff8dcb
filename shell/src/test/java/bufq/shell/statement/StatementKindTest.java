package bufq.shell.statement;

import bufq.shell.api.Command;
import bufq.shell.api.CommandTable;
import bufq.shell.statement.StatementKind;
import bufq.shell.statement.StatementReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One answer to "is this line a query?". The shell, the statement reader and the REPL used to
 * answer it three ways: a bare {@code modules} was a command to the shell and a query to the
 * others. docs/inputs.md: "{@code modules} alone lists the handles; with clauses it is an entity".
 */
class StatementKindTest {
    private static final Set<String> ENTITIES = Set.of("values", "steps", "modules");
    private static final Set<String> COMMANDS = Set.of("modules", "summary", "peak", "js");

    private static boolean isQuery(String line) {
        return StatementKind.isQuery(line, ENTITIES, w -> COMMANDS.contains(w.toLowerCase(java.util.Locale.ROOT)));
    }

    @ParameterizedTest(name = "[{index}] ''{0}'' is a query: {1}")
    @CsvSource(delimiter = '|', value = {
            "modules                          | false",   // the command, as documented
            "'  modules  '                    | false",
            "MODULES                          | false",
            "modules where kind = \"profile\" | true",
            "modules order by program         | true",
            "modules;                         | true",     // not alone: the query, as the shell has run it
            "values                           | true",     // an entity that is no command
            "Values where size > 1            | true",
            "summary                          | false",
            "summary values                   | false",
            "peak                             | false",
            "js values                        | false",
            "valuesx                          | false",
            "''                               | false",
    })
    void tellsQueriesFromCommands(String line, boolean query) {
        assertEquals(query, isQuery(line), line);
    }

    @Test
    void aBareModulesStartsAQueryThatMayGoOn() {
        assertTrue(StatementKind.startsQuery("modules", ENTITIES));
        assertFalse(isQuery("modules"), "yet alone it runs as the command");
        assertFalse(StatementKind.startsQuery("summary", ENTITIES));
    }

    /** The reader joins a query's clause lines to a bare 'modules', and leaves it alone otherwise. */
    @Test
    void theReaderAgrees() throws IOException {
        StatementReader r = new StatementReader(new BufferedReader(new StringReader(
                "modules\n  where kind = \"profile\"\nmodules\n\nsummary\n")), ENTITIES, code -> false);
        assertEquals(List.of("modules where kind = \"profile\"", "modules", "summary"),
                List.of(r.next().text(), r.next().text(), r.next().text()));
        assertEquals(null, r.next());
    }

    /** With no command of that name, a bare entity is a query. */
    @Test
    void withoutTheCommandABareEntityIsAQuery() {
        CommandTable table = new CommandTable() {
            @Override public Command byName(String name) { return null; }
            @Override public List<Command> all() { return List.of(); }
            @Override public List<String> names() { return List.of(); }
        };
        assertTrue(StatementKind.isQuery("modules", ENTITIES, w -> table.byName(w) != null), "no command 'modules': the entity");
        assertEquals("modules", StatementKind.firstWord("  modules where x"));
    }
}
