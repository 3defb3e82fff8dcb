package bufq.analysis.advise;

import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements {@code advise} prints, as people read them: each selection of values by id in an
 * edit ({@code where id in (127, 128, ...)}) becomes the shortest condition that selects exactly
 * those values ({@link ShortestCondition}), so a line stays short on a module of hundreds of layers
 * and says what it selects. What the condition selects is checked by running it, so the line
 * reproduces the same saving.
 */
public final class ReadableEdits implements UnaryOperator<String> {
    private static final Pattern BY_ID = Pattern.compile("\\bid (?:in \\(([0-9, ]+)\\)|= ([0-9]+))");

    private final HloModule module;
    private final Catalog catalog;
    private final TilingModel tiling;

    public ReadableEdits(HloModule module, Catalog catalog, TilingModel tiling) {
        this.module = module;
        this.catalog = catalog;
        this.tiling = tiling;
    }

    /**
     * {@code edit} with each id selection written as a condition; as it is where none is found, or
     * where a field's getter fails (a category rule of the user's).
     */
    @Override public String apply(String edit) {
        try {
            return readable(edit);
        } catch (QueryException | RuntimeException e) {
            return edit;
        }
    }

    private String readable(String edit) throws QueryException {
        Matcher m = BY_ID.matcher(edit);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            List<HloValue> vs = new ArrayList<>();
            String ids = m.group(1) != null ? m.group(1) : m.group(2);
            boolean known = true;
            for (String id : ids.split(",\\s*")) {
                HloValue v = module.value(Long.parseLong(id.strip()));
                if (v == null) known = false;
                else vs.add(v);
            }
            String condition = known ? ShortestCondition.of(module, vs, catalog, tiling) : m.group();
            m.appendReplacement(out, Matcher.quoteReplacement(condition));
        }
        m.appendTail(out);
        return out.toString();
    }
}
