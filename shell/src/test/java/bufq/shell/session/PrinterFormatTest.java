package bufq.shell.session;

import bufq.shell.run.Shell;
import bufq.format.FormatOptions;
import bufq.format.Formatter;
import bufq.format.JsonFormatter;
import bufq.format.Result;
import bufq.shell.cli.Bufq;
import bufq.table.Output;
import bufq.table.Table;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The printer hands a format the whole result and never asks which format it has: a format it has
 * never seen (here one row a line with its table's name, as NDJSON would be) prints through it, with
 * no change to the printer, and the session's settings reach it as parts of the result.
 */
class PrinterFormatTest {
    /** One JSON object a line: {"table": TITLE, "row": {...}}; notes, headings and row caps are not data. */
    static final class Lines implements Formatter {
        @Override public String name() { return "lines"; }
        @Override public boolean forPeople() { return false; }

        @Override public void write(Table table, FormatOptions options, StringBuilder out) {
            for (int r = 0; r < table.size(); r++) {
                out.append("{\"table\": ");
                JsonFormatter.string(table.title() == null ? "" : table.title(), out);
                out.append(", \"row\": {");
                for (int c = 0; c < table.width(); c++) {
                    if (c > 0) out.append(", ");
                    JsonFormatter.string(table.columns().get(c).name(), out);
                    out.append(": ");
                    JsonFormatter.value(table.cell(r, c), out);
                }
                out.append("}}\n");
            }
        }

        @Override public void write(Result result, FormatOptions options, StringBuilder out) {
            for (Output o : result.outputs()) if (o instanceof Table t) write(t, options, out);
        }
    }

    @Test
    void aFormatThePrinterHasNeverSeenPrintsThroughIt() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Shell s = Bufq.shell(new FakeEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), false));
        s.modules().addModules(List.of(FakeEngine.module("m")));
        s.printer().setFormat(new Lines());
        assertEquals(Status.OK, s.execute("set maxrows 1"));
        assertEquals(Status.OK, s.execute("set echo on"));
        assertEquals(Status.OK, s.execute("values limit 2"));
        assertEquals(Status.OK, s.execute("values limit 1"));
        assertEquals("{\"table\": \"\", \"row\": {\"id\": 1, \"name\": \"p0\", \"size\": 64}}\n"
                + "{\"table\": \"\", \"row\": {\"id\": 2, \"name\": \"add.1\", \"size\": 128}}\n"
                + "{\"table\": \"\", \"row\": {\"id\": 1, \"name\": \"p0\", \"size\": 64}}\n",
                out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
