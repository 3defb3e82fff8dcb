package bufq.eval;

import bufq.model.DumpPart;

import java.util.Set;

/** A field and the dump parts its getter reads, besides those every module holds (see {@link Catalog#needs}). */
record FieldDef(FieldInfo info, Getter getter, Set<DumpPart> needs) {
    FieldDef(FieldInfo info, Getter getter) { this(info, getter, Set.of()); }
}
