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
