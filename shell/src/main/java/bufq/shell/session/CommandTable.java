package bufq.shell.session;

import java.util.List;

/** The commands a session dispatches to by name; {@code bufq.shell.command.Commands} is the real one. */
public interface CommandTable {
    /** The command invoked by {@code name} (its name or an alias), or null. */
    Command byName(String name);

    /** Every command, in the order {@code help} lists them. */
    List<Command> all();

    /** Names and aliases, for completion and "did you mean". */
    List<String> names();
}
