package bufq.shell.api;

import java.util.List;

/** The commands a session dispatches to by name; {@code bufq.shell.command.Commands} is the real one. */
public interface CommandTable extends CommandDocs {
    @Override Command byName(String name);

    @Override List<Command> all();
}
