package bufq.shell.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.shell.session.CommandException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C during an export said {@code cannot write .../big.json: null}. The REPL's Ctrl-C
 * interrupts the statement's thread; here it comes half-way through the file, as it did there.
 */
class ExportCancelTest {
    @TempDir Path dir;

    @AfterEach
    void clearFlag() { Thread.interrupted(); }

    @Test
    void aCancelHalfWaySaysSoAndLeavesNoFile() throws Exception {
        Path file = dir.resolve("big.json");
        byte[] chunk = new byte[1 << 20];
        CommandException e = assertThrows(CommandException.class, () -> ExportCommand.write(file.toString(), false, out -> {
            for (int i = 0; i < 4; i++) out.write(chunk);
            Thread.currentThread().interrupt();   // Ctrl-C
            for (int i = 0; i < 4; i++) out.write(chunk);
        }));
        Thread.interrupted();
        assertEquals("cancelled (Ctrl-C); " + file + " was not written", e.getMessage());
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(), s.toList(), "no file, no temporary file");
        }
    }

    @Test
    void otherFailuresNameTheirCause() {
        Path file = dir.resolve("missing-dir/out.json");
        CommandException e = assertThrows(CommandException.class, () -> ExportCommand.write(file.toString(), false, out -> out.write(1)));
        assertTrue(e.getMessage().startsWith("cannot write " + file + ": ") && !e.getMessage().endsWith("null"), e.getMessage());
    }
}
