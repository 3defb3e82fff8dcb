package bufq.shell.cli;

import bufq.shell.session.ExitCode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whatif edits whose sizes would overflow a long are refused with a location, never "long overflow". */
class WhatifOverflowTest {
    private static final String EXAMPLE = Path.of(System.getProperty("bufq.root", "..")).resolve("examples/jax-mlp").toString();

    private static HostileFilesTest.Result whatif(String edits) {
        return HostileFilesTest.run("--no-init", "-c", "whatif " + edits, EXAMPLE);
    }

    @Test
    void hugeFactorsAndSizesAreRefusedAtTheirToken() {
        for (String edits : new String[] {"scale where true by 9223372036854775807", "size where true = 9223372036854775807"}) {
            HostileFilesTest.Result r = whatif(edits);
            assertEquals(ExitCode.FAILED, r.code(), r.err());
            assertTrue(r.err().contains("must be from 0 to"), r.err());
            assertTrue(r.err().contains("^"), "a caret under the number: " + r.err());
            assertFalse(r.err().contains("overflow"), r.err());
        }
    }

    @Test
    void aScaleThatWouldPassTwoToTheFiftySixIsRefusedAtItsCondition() {
        HostileFilesTest.Result r = whatif("size where true = 65536TiB; scale where true by 2");
        assertEquals(ExitCode.FAILED, r.code(), r.err());
        assertTrue(r.err().contains("gives more than 2^56 bytes (64 PiB)"), r.err());
        assertFalse(r.err().contains("overflow"), r.err());
    }
}
