package bufq.format;

import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;

import java.util.ArrayList;
import java.util.List;

/** What the formats' renderings of a whole {@link Result} share: its outputs in order, its data, their keys. */
final class Results {
    private Results() {}

    /**
     * A result for people, in order, a blank line between two outputs: tables cut to its
     * {@code maxRows} and without their note columns, text as is ({@code fenced}: in a code fence), or
     * on a terminal fitted to its width ({@link Prose}).
     */
    static void inOrder(Result result, Formatter f, boolean fenced, FormatOptions options, StringBuilder out) {
        boolean first = true;
        for (Output o : result.outputs()) {
            if (!first) out.append('\n');
            first = false;
            if (o instanceof Table t) f.write((result.maxRows() > 0 ? t.limit(result.maxRows()) : t).withoutJsonOnlyColumns(), options, out);
            else if (o instanceof TextBlock tb) text(fenced ? tb.text() : Prose.fit(tb.text(), options.wrapWidth()), fenced, out);
        }
    }

    static void text(String text, boolean fenced, StringBuilder out) {
        String fence = "```";
        while (fenced && text.contains(fence)) fence += "`";
        if (fenced) out.append(fence).append('\n');
        out.append(text);
        if (!text.endsWith("\n")) out.append('\n');
        if (fenced) out.append(fence).append('\n');
    }

    /** What data formats print: tables, charts' tables, and text only when there is nothing else. */
    static List<Output> data(List<? extends Output> outputs) {
        List<Output> tables = new ArrayList<>();
        for (Output o : outputs) {
            if (o instanceof Table t) tables.add(t);
            else if (o instanceof TextBlock tb && tb.data() != null) tables.add(tb.data());
        }
        return tables.isEmpty() ? List.copyOf(outputs) : tables;
    }

    /** Unique keys for several outputs: each table's {@link Table#key} (a text's {@code text_N}), numbered when two agree. */
    static List<String> keys(List<Output> data) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            String k = data.get(i) instanceof Table t ? t.key() : "text_" + (i + 1);
            String base = k;
            for (int n = 2; keys.contains(k); n++) k = base + "_" + n;
            keys.add(k);
        }
        return keys;
    }

}
