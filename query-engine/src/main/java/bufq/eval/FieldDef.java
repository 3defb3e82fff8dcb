package bufq.eval;

/** A field, and whether its getter reads the Used values section (see {@link Catalog#readsUsedValues}). */
record FieldDef(FieldInfo info, Getter getter, boolean readsUsedValues) {
    FieldDef(FieldInfo info, Getter getter) { this(info, getter, false); }
}
