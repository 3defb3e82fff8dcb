package bufq.shell.script;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A script field with a typo ({@code v.idle_step} for {@code v.idle_steps}) was NaN on
 * every value and {@code where idle_frac > 0.5} returned them all. Its NaN is now null, and the
 * mistake is said once, naming the field, the row and the property.
 */
class FieldMistakesTest {
    final Harness h = new Harness().load(Harness.seed(0));

    @AfterEach
    void close() throws Exception { h.close(); }

    private long count(String where) {
        return Long.parseLong(h.ok("values where " + where + " show count()").replaceAll("(?s).*?\\n-+\\n\\s*(\\d+).*", "$1"));
    }

    @Test
    void aTypoedPropertyIsToldOnceAndComparesFalse() {
        long all = count("id >= 0");
        h.ok("js bufq.field('values', 'idle_frac', v => v.idle_step / 10, {type: 'float'})");
        assertEquals(0, count("idle_frac > 0.5"));
        String err = h.err();
        assertTrue(err.contains("field 'idle_frac' of values gave NaN for "), err);
        assertTrue(err.contains("it reads 'idle_step', which values rows do not have (did you mean 'idle_steps'?)"), err);
        assertEquals(1, err.split("field 'idle_frac' of values", -1).length - 1, "told once, not per row:\n" + err);
        assertEquals(0, count("idle_frac < 0.5"));
        assertEquals(0, count("idle_frac != 0.5"));
        assertEquals(all, count("idle_frac is null"));
        assertFalse(h.err().contains("idle_frac"), "told once, not per query:\n" + h.err());
    }

    @Test
    void undefinedAndAMissingPropertyWithAGoodResultAreToldToo() {
        h.ok("js bufq.field('values', 'nothing', v => undefined, {type: 'int'})");
        h.ok("values show nothing limit 2");
        assertTrue(h.err().contains("field 'nothing' of values gave undefined for "), h.err());
        h.ok("js bufq.field('values', 'guarded', v => v.sizee ?? 0, {type: 'int'})");
        h.ok("values show guarded limit 2");
        assertTrue(h.err().contains("field 'guarded' of values read a property "), h.err());
        assertTrue(h.err().contains("'sizee', which values rows do not have (did you mean 'size'?)"), h.err());
    }

    @Test
    void aGoodFieldSaysNothing() {
        h.ok("js bufq.field('values', 'half', v => v.size / 2)");
        h.ok("values show half");
        assertFalse(h.err().contains("warning"), h.err());
    }

    @Test
    void onlyTheDocumentedTypesAreAccepted() {
        for (String t : new String[] {"note", "number", "boolean", "money"})
            assertTrue(h.fails("js bufq.field('values', 'x', r => 1, {type: '" + t + "'})").contains("unknown field type '" + t + "'"), t + ": " + h.err());
        h.ok("js bufq.field('values', 'y', r => 1, {type: 'percent'})");
    }
}
