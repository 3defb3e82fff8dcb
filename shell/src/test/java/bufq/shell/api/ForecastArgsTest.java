package bufq.shell.api;

import bufq.api.ForecastRequest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The forecast request as the one grammar reads it, for the command and for bufq.forecast(text). */
class ForecastArgsTest {
    @Test
    void theRequestGrammar() throws Exception {
        ForecastRequest r = ForecastArgs.request("x[0] at 64 limit 5;");
        assertEquals("x[0]", r.dimension());
        assertEquals(64, r.n());
        assertEquals(5, r.limit());
        ForecastRequest fit = ForecastArgs.request("fit");
        assertTrue(fit.fit());
        assertEquals(-1, fit.n());
        assertEquals(128, ForecastArgs.request("fit at 128").n());
        for (String bad : new String[] {"", "at", "at x", "at 0", "x", "at 64 extra", "fit at", "at 64 limit"}) {
            ArgumentError e = assertThrows(ArgumentError.class, () -> ForecastArgs.request(bad), bad);
            String m = e.getMessage();
            assertTrue(m.contains("expected") || m.contains("takes a whole number >= 1") || m.contains("unexpected") || m.contains("needs"),
                    bad + ": " + m);
        }
    }

    @Test
    void theRequestReadsChips() throws Exception {
        ForecastRequest r = ForecastArgs.request("chips at 8");
        assertTrue(r.chips() && !r.fit() && r.n() == 8);
        assertTrue(ForecastArgs.request("CHIPS fit").fit());
        ArgumentError e = assertThrows(ArgumentError.class, () -> ForecastArgs.request("chips at"));
        assertTrue(e.getMessage().contains("'at' needs a value"), e.getMessage());
        assertThrows(ArgumentError.class, () -> ForecastArgs.request("chips 8"));
        assertFalse(ForecastArgs.request("x[0] at 8").chips());
    }

    @Test
    void aMistypedKeywordGetsTheCaretAndTheNearWord() {
        ArgumentError e = assertThrows(ArgumentError.class, () -> ForecastArgs.request("fti"));
        assertEquals(0, e.diagnostic().start());
        assertTrue(e.diagnostic().suggestions().contains("fit"), e.getMessage());
    }
}
