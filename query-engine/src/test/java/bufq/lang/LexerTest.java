package bufq.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LexerTest {
    private static String kinds(String text) {
        return Lexer.lex(text).stream().map(t -> t.kind() + ":" + t.text()).collect(Collectors.joining(" "));
    }

    static Stream<Arguments> tokens() {
        return Stream.of(
                Arguments.of("values where color=1", "IDENT:values KEYWORD:where IDENT:color OPERATOR:= NUMBER:1 EOF:"),
                Arguments.of("live during 5..9", "KEYWORD:live KEYWORD:during NUMBER:5 DOTDOT:.. NUMBER:9 EOF:"),
                Arguments.of("live during fusion.1..fusion.3", "KEYWORD:live KEYWORD:during IDENT:fusion.1 DOTDOT:.. IDENT:fusion.3 EOF:"),
                Arguments.of("size>=1.5MiB", "IDENT:size OPERATOR:>= NUMBER:1.5MiB EOF:"),
                Arguments.of("custom-call.12 %p0", "IDENT:custom-call.12 IDENT:%p0 EOF:"),
                Arguments.of("\"a\\\"b\" ~", "STRING:\"a\\\"b\" OPERATOR:~ EOF:"),
                Arguments.of("count()", "IDENT:count LPAREN:( RPAREN:) EOF:"),
                Arguments.of("a != b !~ c <> d", "IDENT:a OPERATOR:!= IDENT:b OPERATOR:!~ IDENT:c OPERATOR:<> IDENT:d EOF:"),
                // errors become tokens, the lexer goes on
                Arguments.of("size > 4Kb2 @", "IDENT:size OPERATOR:> ERROR:4Kb2 ERROR:@ EOF:"),
                Arguments.of("4XiB", "ERROR:4XiB EOF:"),
                Arguments.of("name = \"open", "IDENT:name OPERATOR:= ERROR:\"open EOF:"),
                // a backslash before q is a regex escape: a string (the parser refuses it outside ~); a short unicode escape is no escape at all
                Arguments.of("\"bad \\q\"", "STRING:\"bad \\q\" EOF:"),
                Arguments.of("\"bad \\u12\"", "ERROR:\"bad \\u12\" EOF:"),
                Arguments.of("name = 'it\\'s' ;", "IDENT:name OPERATOR:= STRING:'it\\'s' SEMICOLON:; EOF:"),
                Arguments.of("size -- a comment\n# another\nlimit", "IDENT:size KEYWORD:limit EOF:"),
                Arguments.of("use jit_f#2", "IDENT:use IDENT:jit_f ERROR:# NUMBER:2 EOF:"),
                Arguments.of("a . b ! c", "IDENT:a ERROR:. IDENT:b ERROR:! IDENT:c EOF:"),
                Arguments.of("", "EOF:"));
    }

    @ParameterizedTest
    @MethodSource
    void tokens(String text, String expected) {
        assertEquals(expected, kinds(text));
    }

    @Test
    void spansCoverTheSource() {
        String q = "values where name ~ \"x\" and size >= 4KiB";
        for (Token t : Lexer.lex(q)) assertEquals(t.text(), q.substring(t.start(), t.end()));
    }

    /** Query literals read through the one unit table: XLA's bare 1M as a flag takes it. */
    @Test
    void sizeLiteralsUseTheUnitTable() {
        assertEquals(new java.math.BigDecimal(1L << 20), Lexer.numberValue("1M"));
        assertEquals(new java.math.BigDecimal(1L << 20), Lexer.numberValue("1mib"));
        assertEquals(new java.math.BigDecimal(80_000_000_000L), Lexer.numberValue("80GB"));
        assertEquals(0, new java.math.BigDecimal("16621523435.52").compareTo(Lexer.numberValue("15.48G")));
        assertEquals(TokenKind.NUMBER, Lexer.lex("1M").get(0).kind());
        assertEquals(TokenKind.ERROR, Lexer.lex("1Q").get(0).kind());
    }

    @Test
    void problemsAreExplained() {
        assertEquals("unknown size unit 'XiB'; expected one of B, KB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB, EiB, K, M, G, T, P, E (help units)",
                Lexer.problem(Lexer.lex("4XiB").get(0)));
        assertEquals("unterminated string; expected a closing '\"'", Lexer.problem(Lexer.lex("\"abc").get(0)));
        assertEquals("unterminated string; expected a closing '\"'", Lexer.problem(Lexer.lex("\"abc\\\"").get(0)));
        assertEquals("unexpected character '@'", Lexer.problem(Lexer.lex("@").get(0)));
    }

    @Test
    void neverThrowsOnArbitraryInput() {
        java.util.Random r = new java.util.Random(7);
        String alphabet = "ab1.\"\\ ()<>=!~,-%KiB\n\t\u00e9\ud83d\ude00";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            int n = r.nextInt(30);
            for (int j = 0; j < n; j++) b.append(alphabet.charAt(r.nextInt(alphabet.length())));
            List<Token> ts = Lexer.lex(b.toString());
            assertEquals(TokenKind.EOF, ts.get(ts.size() - 1).kind());
        }
    }
}
