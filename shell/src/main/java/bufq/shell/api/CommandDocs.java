package bufq.shell.api;

import java.util.List;

/**
 * The session's commands as {@code help} and the statement reader see them: by name, documented, in
 * order. {@link CommandTable} is the same list as runnable {@link Command}s; {@link SessionControl}
 * hands out only this, so a command's context does not reach back to the commands.
 */
public interface CommandDocs {
    /** The command invoked by {@code name} (its name or an alias), or null. */
    CommandDoc byName(String name);

    /** Every command, in the order {@code help} lists them. */
    List<? extends CommandDoc> all();

    /** Names and aliases, for completion and "did you mean". */
    List<String> names();
}
