package bufq.shell.api;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgGrammarTest {
    static final ArgGrammar BLAME = ArgGrammar.of("blame")
            .choice("by", List.of("op_name", "source", "opcode"), List.of("src"))
            .count("depth", 0).step("at", "claimed_peak").count("limit", 0).flag("--force");

    @Test
    void theSynopsisIsMadeFromTheDeclaration() {
        assertEquals("blame [by op_name|source|opcode] [depth N] [at claimed_peak|STEP] [limit N] [--force]", BLAME.synopsis());
    }

    @Test
    void readsKeywordsInAnyOrderWithTheirSpans() throws Exception {
        ArgGrammar.Parsed p = BLAME.parse("limit 3 by src --force");
        assertEquals("src", p.text("by"));
        assertEquals(new ArgGrammar.Word("src", 11, 14), p.word("by"));
        assertEquals(3, p.count("limit").getAsInt());
        assertTrue(p.has("--force"));
        assertFalse(p.has("depth"));
    }

    @Test
    void aWrongWordGetsACaretAndADidYouMean() {
        ArgGrammar.ArgumentError e = assertThrows(ArgGrammar.ArgumentError.class, () -> BLAME.parse("by sorce"));
        assertEquals("blame by sorce\n         ^^^^^\nblame by takes op_name, source or opcode, not 'sorce'; did you mean 'source'?",
                e.render("blame by sorce", 6));
        e = assertThrows(ArgGrammar.ArgumentError.class, () -> BLAME.parse("dpeth 3"));
        assertEquals(List.of("depth"), e.diagnostic().suggestions());
        assertEquals(0, e.diagnostic().start());
        e = assertThrows(ArgGrammar.ArgumentError.class, () -> BLAME.parse("limit x"));
        assertEquals("'limit' takes a whole number >= 0, not 'x'", e.getMessage());
        e = assertThrows(ArgGrammar.ArgumentError.class, () -> BLAME.parse("by"));
        assertEquals("'by' needs a value; usage: " + BLAME.synopsis(), e.getMessage());
    }
}
