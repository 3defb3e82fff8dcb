package bufq.analysis.whatif;

import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The edits {@code advise} and {@code blame by sharding} print, as people read them, written once
 * from the what-if engine's edit objects: each selection of values a rule built by id becomes the
 * shortest condition that selects exactly those values ({@link ShortestCondition}: {@code op_name ~
 * "/attention/" and live at peak}), so a line stays short on a module of hundreds of layers and says
 * what it selects. What the condition selects is checked by running it, so the line reproduces the
 * same saving; a condition a user or script wrote is printed as written.
 */
public final class ReadableEdits {
    private final HloModule module;
    private final Catalog catalog;
    private final TilingModel tiling;
    private ShortestCondition conditions;

    public ReadableEdits(HloModule module, Catalog catalog, TilingModel tiling) {
        this.module = module;
        this.catalog = catalog;
        this.tiling = tiling;
    }

    /** {@code edits} as one {@code whatif} argument, {@code ; }-separated. */
    public String render(List<Edit> edits) {
        return edits.stream().map(this::render).collect(Collectors.joining("; "));
    }

    /**
     * One edit, its selection by id written as a condition; the ids where no condition is found or a
     * field's getter fails (a category rule of the user's).
     */
    public String render(Edit e) {
        String named = named(e);
        return named != null ? named : e.text();
    }

    /**
     * {@code edits} with every selection of more than {@link ShortestCondition#FEW} ids named by a
     * condition; null when one of them has none.
     */
    public String named(List<Edit> edits) {
        List<String> out = new ArrayList<>();
        for (Edit e : edits) {
            String n = named(e);
            if (n == null && e.where() != null && e.where().ids() != null && e.where().ids().size() > ShortestCondition.FEW) return null;
            out.add(n != null ? n : e.text());
        }
        return String.join("; ", out);
    }

    private String named(Edit e) {
        Edit.Where w = e.where();
        if (w == null || w.ids() == null) return e.text();
        List<HloValue> vs = new ArrayList<>();
        for (long id : w.ids()) {
            HloValue v = module.value(id);
            if (v == null) return null;
            vs.add(v);
        }
        try {
            if (conditions == null) conditions = ShortestCondition.over(module, catalog, tiling);
            String c = conditions.of(vs);
            return c.equals(ShortestCondition.byId(vs)) && vs.size() > ShortestCondition.FEW ? null : e.written(c);
        } catch (QueryException | RuntimeException x) {
            return null;
        }
    }
}
