package bufq.shell.api;

import java.util.List;

/**
 * What {@code help} and completion know of a command: its words and documentation, not how it runs.
 * {@link Command} adds the running; the session lists commands as this ({@link CommandDocs}) so that
 * what a command is handed does not lead back to the commands themselves.
 */
public interface CommandDoc {
    /** The word that invokes it. */
    String name();

    /** Other words that invoke it. */
    default List<String> aliases() { return List.of(); }

    /** Its arguments, declared once: what parses them, and what {@link #synopsis} and completion are made from. */
    ArgGrammar grammar();

    /** Usage in one line, e.g. {@code set NAME VALUE}: its {@link #grammar}'s. */
    default String synopsis() { return grammar().synopsis(); }

    /** What it does, in a sentence or a short paragraph. */
    String description();

    /** One line for the command list: the description's first sentence unless overridden. */
    default String brief() {
        String d = description().replace('\n', ' ');
        int dot = d.indexOf(". ");
        return dot > 0 ? d.substring(0, dot + 1) : d;
    }

    /** Lines a user can type as they are. */
    List<String> examples();
}
