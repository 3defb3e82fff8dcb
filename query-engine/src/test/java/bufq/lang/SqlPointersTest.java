package bufq.lang;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** SQL habits get a one-line "did you mean" with the bufq form. */
class SqlPointersTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "values where label like '%gather%'|expected 'and', 'or' or a clause (where, group by, show, order by, limit) but found 'like' (bufq matches text with a regular expression); did you mean 'label ~ 'gather''?",
            "values where label not like 'fus%' limit 2|expected 'and', 'or' or a clause (where, group by, show, order by, limit) but found 'like' (bufq matches text with a regular expression); did you mean 'label !~ '^fus''?",
            "values group by allocation show count(*)|unexpected '*': count() counts rows without an argument; did you mean 'count()'?",
            "values limit 2 offset 2|expected a clause (where, group by, show, order by, limit) but found 'offset'; bufq has no OFFSET (offset is a value's byte offset): 'limit 4' and skip the first 2 rows",
            "values orderby size|expected a clause (where, group by, show, order by, limit) but found 'orderby'; did you mean 'order by'?",
            "values groupby allocation|expected a clause (where, group by, show, order by, limit) but found 'groupby'; did you mean 'group by'?",
            "values select label|expected a clause (where, group by, show, order by, limit) but found 'select' (bufq picks columns with show); did you mean 'show'?",
    })
    void habitsPointAtTheBufqForm(String query, String message) {
        QueryException e = assertThrows(QueryException.class, () -> Parser.parse(query));
        assertEquals(message, e.diagnostic().fullMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SELECT * FROM values LIMIT 3|; bufq has no SELECT, queries start with the entity: did you mean 'values limit 3'?",
            "select label, size from values where label LIKE '%Gather%' order by size desc;|; bufq has no SELECT, queries start with the entity: did you mean 'values where label ~ 'Gather' order by size desc show label, size'?",
            "SELECT count(*) FROM allocations|; bufq has no SELECT, queries start with the entity: did you mean 'allocations show count()'?",
            "\\q|; did you mean 'quit'? (or Ctrl-D)",
            "sumary|''",
    })
    void statementsThatAreSql(String text, String hint) {
        assertEquals(hint, SqlHabits.forStatement(text));
    }

    @ParameterizedTest
    @CsvSource({"%gather%,gather", "fus%,^fus", "%.1,\\.1$", "a_b%c%,^a.b.*c", "exact,^exact$"})
    void likePatternsBecomeRegularExpressions(String like, String regex) {
        assertEquals(regex, SqlHabits.regexOf(like));
    }
}
