package bufq.shell.repl;

import org.jline.utils.InfoCmp;

import java.io.IOError;

/** Terminal descriptions JLine ships, used instead of asking {@code infocmp}: by the REPL and its rehearsal. */
final class TerminalCapabilities {
    private TerminalCapabilities() {}

    /**
     * JLine asks the {@code infocmp} program for the terminal's capabilities, a process start that
     * costs a third of a second on a busy machine. For the types it ships a description of (xterm,
     * xterm-256color, screen, ansi, ...) that description is used instead; tmux's own types get
     * screen's, which tmux documents as compatible. Other types still ask {@code infocmp}.
     */
    static void useShipped(String term) {
        if (term == null || term.isEmpty()) return;
        String shipped = term.startsWith("tmux") ? term.replaceFirst("^tmux", "screen") : term;
        try {
            String caps = InfoCmp.getDefaultInfoCmp(shipped);
            if (caps != null && !caps.isEmpty()) InfoCmp.setLoadedInfoCmp(term, caps);
        } catch (RuntimeException | IOError e) {
            // not shipped with JLine: infocmp it is
        }
    }
}
