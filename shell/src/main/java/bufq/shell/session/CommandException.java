package bufq.shell.session;

import bufq.model.PartReadException;

/** A command was used wrongly or could not do its job; the message is one lowercase line for the user. */
public class CommandException extends Exception {
    /** The message of a statement Ctrl-C stopped. */
    public static final String CANCELLED = "cancelled (Ctrl-C)";

    public CommandException(String message) {
        super(message, null, false, false);
    }

    /** A failed read of a part left for first use, as the one line the user sees. */
    public static CommandException of(PartReadException e) {
        return new CommandException(e.cancelled() ? CANCELLED : e.getMessage());
    }
}
