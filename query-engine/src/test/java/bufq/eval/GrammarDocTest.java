package bufq.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.lang.QueryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** GRAMMAR.md stays true: its examples compile and its field table lists exactly the catalog's fields. */
class GrammarDocTest {
    private static String doc() throws IOException {
        Path p = Path.of(System.getProperty("bufq.root", "."), "query-engine", "GRAMMAR.md");
        if (!Files.exists(p)) p = Path.of("GRAMMAR.md");
        return Files.readString(p);
    }

    @Test
    void examplesCompile() throws IOException, QueryException {
        String d = doc();
        String block = d.substring(d.indexOf("```\n") + 4, d.indexOf("```", d.indexOf("```\n") + 4));
        int n = 0;
        for (String line : block.split("\n")) {
            if (line.isBlank()) continue;
            Query.compile(line, Catalog.standard());
            n++;
        }
        assertEquals(9, n);
    }

    @Test
    void fieldTableMatchesTheCatalog() throws IOException {
        Matcher m = Pattern.compile("(?m)^\\| `(\\w+)` \\| (.*) \\|$").matcher(doc());
        List<String> seen = new ArrayList<>();
        while (m.find()) {
            String entity = m.group(1);
            String list = m.group(2).replaceAll("\\(default:.*\\)", "").replace("*", "");
            List<String> documented = new ArrayList<>();
            for (String f : list.split(",")) if (!f.isBlank()) documented.add(f.trim());
            List<String> actual = Catalog.standard().fields(entity).stream().map(FieldInfo::name).toList();
            assertEquals(actual, documented, entity);
            seen.add(entity);
        }
        assertEquals(Catalog.standard().entities(), seen);
    }

    /**
     * The EBNF is the parser's: every keyword the lexer knows is a terminal of it, its entity rule
     * lists the catalog's entities, and each word it quotes is a keyword, an entity, an aggregate or
     * a peak option, so a rule the parser lost or gained fails here.
     */
    @Test
    void theGrammarIsTheParsers() throws IOException {
        String d = doc();
        String ebnf = d.substring(d.indexOf("```ebnf") + 7);
        ebnf = ebnf.substring(0, ebnf.indexOf("```")).replaceAll("(?s)\\(\\*.*?\\*\\)", "");
        java.util.Set<String> quoted = new java.util.TreeSet<>();
        Matcher q = Pattern.compile("\"([a-z_]{2,})\"").matcher(ebnf);
        while (q.find()) quoted.add(q.group(1));
        for (String k : bufq.lang.Lexer.KEYWORDS) assertTrue(quoted.contains(k), "the lexer's keyword '" + k + "' is in the grammar");
        Matcher e = Pattern.compile("(?m)^entity\\s*=(.*);").matcher(ebnf);
        assertTrue(e.find(), "the grammar has an entity rule");
        List<String> entities = new ArrayList<>();
        Matcher w = Pattern.compile("\"(\\w+)\"").matcher(e.group(1));
        while (w.find()) entities.add(w.group(1));
        assertEquals(Catalog.standard().entities(), entities);
        java.util.Set<String> known = new java.util.HashSet<>(bufq.lang.Lexer.KEYWORDS);
        known.addAll(entities);
        known.addAll(List.of("count", "sum", "min", "max", "avg", "color", "min_share"));
        for (String t : quoted) assertTrue(known.contains(t), "'" + t + "' in the grammar is a word the parser reads");
    }

    @Test
    void everyFieldHasADoc() {
        for (String e : Catalog.standard().entities())
            for (FieldInfo f : Catalog.standard().fields(e)) assertTrue(!f.doc().isBlank(), e + "." + f.name());
    }

    @Test
    void fieldTableForTheFieldsCommand() {
        bufq.table.Table t = Catalog.standard().fieldTable("steps");
        assertEquals("[steps, live_bytes, bytes, logical bytes of the values live here (shared bytes counted per value)]", t.rows().get(3).toString());
        assertEquals(Catalog.standard().fields("steps").size(), t.size());
        int all = 0;
        for (String e : Catalog.standard().entities()) all += Catalog.standard().fields(e).size();
        assertEquals(all, Catalog.standard().fieldTable(null).size());
    }
}
