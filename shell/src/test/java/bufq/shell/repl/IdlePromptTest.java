package bufq.shell.repl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The one idle mechanism: its work runs in order once the prompt is idle, stops between steps when a
 * key is typed or a statement entered, and goes on where it stopped at the next idle moment.
 * (What the work is, the shell's deferred reads, engine start and init.js, is DeferredSectionTest and
 * EngineStartTest.) No waiting on the clock: the idle time is 0 and the steps count down latches.
 */
class IdlePromptTest {
    /** Two steps, each done once, as Shell.idle's are; the first optionally "sees a key" while it runs. */
    static final class TwoSteps {
        final List<String> done = new ArrayList<>();
        final CountDownLatch second = new CountDownLatch(1);
        final CountDownLatch firstRun = new CountDownLatch(1);
        IdlePrompt prompt;
        boolean keyDuringFirst;

        synchronized void run(BooleanSupplier stillIdle) {
            done.add("run");
            if (!done.contains("first")) {
                done.add("first");
                if (keyDuringFirst) prompt.typing();
                firstRun.countDown();
            }
            if (!stillIdle.getAsBoolean()) return;
            if (!done.contains("second")) {
                done.add("second");
                second.countDown();
            }
        }
    }

    @Test
    @Timeout(60)
    void aKeyStopsTheWorkBetweenStepsAndTheNextIdleMomentFinishesIt() throws Exception {
        TwoSteps w = new TwoSteps();
        w.keyDuringFirst = true;
        try (IdlePrompt p = new IdlePrompt(0, w::run)) {
            w.prompt = p;
            p.prompting();
            assertTrue(w.firstRun.await(30, TimeUnit.SECONDS));
            // the key stopped it after the first step; idle again, the work goes on with the second
            assertTrue(w.second.await(30, TimeUnit.SECONDS));
            synchronized (w) {
                assertEquals(List.of("run", "first", "run", "second"), w.done.subList(0, 4), "stopped after the first step");
            }
        }
    }

    @Test
    void aStatementOrAKeyMeansNotIdle() {
        try (IdlePrompt p = new IdlePrompt(60_000, s -> fail("the prompt never waits a minute here"))) {
            assertFalse(p.stillIdle(), "no prompt yet");
            p.prompting();
            assertFalse(p.stillIdle(), "keys since the work started (it has not)");
            p.busy();
            assertFalse(p.stillIdle());
            p.typing();   // a key while a statement runs is no prompt activity
            assertFalse(p.stillIdle());
        }
    }
}
