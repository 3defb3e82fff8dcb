package bufq.shell.session;

/** A command was used wrongly or could not do its job; the message is one lowercase line for the user. */
public class CommandException extends Exception {
    /** The message of a statement Ctrl-C stopped. */
    public static final String CANCELLED = "cancelled (Ctrl-C)";

    public CommandException(String message) {
        super(message, null, false, false);
    }
}
