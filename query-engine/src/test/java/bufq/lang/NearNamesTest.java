package bufq.lang;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one "did you mean" policy: cut-short names, then the nearest within the edit limit. */
class NearNamesTest {
    private static final List<String> DEVICES = List.of("v4", "v5e", "v5p", "v6e", "h100");

    @Test void aCutShortNameMeansTheNamesItStarts() {
        // v4 is one edit from v5, but v5 is the start of two names: those were meant
        assertEquals(List.of("v5e", "v5p"), NearNames.near("v5", DEVICES));
        assertEquals("; did you mean 'v5e' or 'v5p'?", NearNames.hint("v5", DEVICES));
    }

    @Test void aSwapIsOneEdit() {
        assertEquals(List.of("fit"), NearNames.near("fti", List.of("fit", "diff", "oom")));
    }

    @Test void theLimitGrowsWithTheWord() {
        // two letters: one edit; six letters: three edits
        assertEquals(List.of(), NearNames.near("xy", List.of("ab")));
        assertEquals(List.of("offset"), NearNames.near("ofsxyt", List.of("offset")));
        assertEquals(List.of(), NearNames.near("qqqqqq", List.of("offset")));
    }

    @Test void aDiagnosticListsUpToThreeAndAHintTheNearest() {
        List<String> names = List.of("values", "value", "steps");
        assertEquals(List.of("values", "value"), NearNames.near("valus", names));
        assertEquals("; did you mean 'values'?", NearNames.hint("valus", names));
        assertEquals("", NearNames.hint("zzzzz", names));
    }

    @Test void caseAsideTheExactNameIsOffered() {
        assertEquals("; did you mean 'peak'?", NearNames.hint("PEAK", List.of("peak", "peaks", "padding")));
    }
}
