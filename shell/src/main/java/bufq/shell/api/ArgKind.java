package bufq.shell.api;

/** What a command argument's value is ({@link ArgGrammar}); the placeholder the synopsis shows for it. */
public enum ArgKind {
    /** A whole number in {@code [min, max]}. */
    COUNT("N"),
    /** {@code peak}, {@code claimed_peak}, a step number or a scheduled instruction's name, resolved against a module when run. */
    STEP("STEP"),
    /** A share: a percentage ({@code 20%}) or a fraction ({@code 0.2}). */
    SHARE("P"),
    /** A byte size ({@code 16GiB}). */
    SIZE("SIZE"),
    /** A loaded module's handle, resolved against the session when run. */
    MODULE("MODULE"),
    /** A memory space: its name ({@code vmem}, {@code hbm}) or colour, resolved against a module when run. */
    SPACE("NAME"),
    /** A file name. */
    FILE("FILE"),
    /** A file named by the rest of the line, as typed ({@code -} for standard input). */
    FILE_REST("FILE", true),
    /** A query condition: the words up to the next keyword, as typed; completed as a query on its entity. */
    CONDITION("CONDITION"),
    /** A factor such as {@code 0.5}. */
    FACTOR("F"),
    /** A tiling model's name, known or defined by a script when run. */
    TILING("NAME"),
    /** An entity's name ({@code values}, {@code steps}), checked against the catalog when run. */
    ENTITY("ENTITY"),
    /** What {@code help} explains: a command's name or a topic. */
    TOPIC("TOPIC"),
    /** A word checked when run (a setting's value, a dimension, a program). */
    TEXT("VALUE"),
    /** The rest of the line as typed, quotes and all (code, a query, edits). */
    REST("TEXT", true),
    /** The rest of the line as typed: a value's id, its name ({@code fusion.3}, {@code fusion.3{1}}) or a query on values. */
    VALUE("ID|NAME|QUERY", true),
    /** One of the argument's choices. */
    CHOICE(""),
    /** A flag or a literal word: no value. */
    FLAG("");

    final String placeholder;
    /** Whether the argument takes the rest of the line, as typed. */
    public final boolean rest;

    ArgKind(String placeholder) { this(placeholder, false); }

    ArgKind(String placeholder, boolean rest) {
        this.placeholder = placeholder;
        this.rest = rest;
    }
}
