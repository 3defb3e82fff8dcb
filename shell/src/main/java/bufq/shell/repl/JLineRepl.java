package bufq.shell.repl;

import bufq.eval.Catalog;
import bufq.shell.session.CommandException;
import bufq.shell.session.ExitCode;
import bufq.shell.statement.Paste;
import bufq.shell.run.Repl;
import bufq.shell.session.Setting;
import bufq.shell.run.Shell;
import bufq.shell.session.Status;
import bufq.shell.session.Version;
import org.jline.reader.EndOfFileException;
import org.jline.reader.Highlighter;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.history.DefaultHistory;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.impl.DumbTerminal;
import org.jline.utils.AttributedString;
import org.jline.utils.Signals;

import java.io.ByteArrayInputStream;
import java.io.IOError;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The interactive shell on a JLine {@link LineReader}: bufq's own parser (multi-line queries),
 * completer and highlighter; history in {@link HistoryFile} (saved after every statement, atomically);
 * a prompt naming the current module. Ctrl-C at the prompt drops the line; while a statement runs
 * it interrupts the thread running it, which stops a query (the evaluator checks the flag). Ctrl-D
 * or {@code quit} leaves. If no terminal can be opened the plain line loop takes over.
 */
public final class JLineRepl implements Repl {
    /** Shown on the second and later lines of an unfinished statement. */
    public static final String CONTINUATION = "   ...> ";
    /** Saved statements of earlier sessions that the {@code history} command lists. */
    static final int EARLIER_LISTED = 100;

    /** Opens the terminal to talk to; the system one in real use, an in-memory one in tests. */
    @FunctionalInterface
    public interface TerminalFactory {
        Terminal open() throws IOException;
    }

    /** How long the prompt waits idle before its idle work ({@link Shell#idle}) starts in the background. */
    static final long IDLE_MS = 300;

    private final TerminalFactory terminals;
    private final InputStream fallbackIn;
    private final long idleMs;

    /**
     * @param terminals  opens the terminal when {@link #run} starts
     * @param fallbackIn read by the plain line loop if no terminal can be opened
     */
    public JLineRepl(TerminalFactory terminals, InputStream fallbackIn) {
        this(terminals, fallbackIn, IDLE_MS);
    }

    /** @param idleMs how long the prompt waits idle before its idle work starts */
    JLineRepl(TerminalFactory terminals, InputStream fallbackIn, long idleMs) {
        this.terminals = terminals;
        this.fallbackIn = fallbackIn;
        this.idleMs = idleMs;
    }

    /**
     * The REPL for a real terminal on {@code in} (stdin); what {@code bufq} uses by default. Opens
     * the terminal on a thread of its own at once, so made before the session's shell and its dumps,
     * the terminal is ready when they are (a tenth of a second of CPU, mostly JLine reading
     * the terminal's capabilities, off the prompt's path). Until {@link #run} starts, Ctrl-C on that
     * terminal interrupts the thread that made the REPL, which stops a load as it did before the
     * terminal was open.
     */
    public static Repl system(InputStream in) {
        Thread starter = Thread.currentThread();
        FutureTask<Terminal> opening = new FutureTask<>(() -> {
            Terminal t = systemTerminal();
            t.handle(Terminal.Signal.INT, signal -> starter.interrupt());
            return t;
        });
        Thread t = new Thread(opening, "bufq-terminal");
        t.setDaemon(true);
        t.start();
        return new JLineRepl(() -> {
            Terminal terminal = opened(opening);
            terminal.handle(Terminal.Signal.INT, Terminal.SignalHandler.SIG_IGN);
            Thread.interrupted();   // a Ctrl-C after the load ended stopped nothing: the session starts
            return terminal;
        }, in);
    }

    /** The terminal {@code opening} opened, or why it could not; waits through a late Ctrl-C. */
    private static Terminal opened(FutureTask<Terminal> opening) throws IOException {
        while (true) {
            try {
                return opening.get();
            } catch (InterruptedException e) {
                // the open ends within a fraction of a second: wait for it
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof IOException io) throw io;
                if (cause instanceof RuntimeException r) throw r;
                if (cause instanceof Error err) throw err;
                throw new IOException(cause);
            }
        }
    }

    /** A rehearsal's prompt never idles: no script engine, no deferred reads. */
    private static final long REHEARSAL_IDLE_MS = 3_600_000;

    /**
     * Runs one session of {@code shell} on an in-memory terminal of the user's type, typing
     * {@code keys} (then Ctrl-D), with no idle work; what it draws is thrown away. The run that makes
     * the launcher's class-data archive for interactive sessions calls it, so that the archive holds the line editor's classes
     * and the lambdas they spin (about 400, each made at run time without an archive): an interactive
     * session's prompt then comes after about 0.8 s of CPU instead of 1.25 s (the bundled example).
     */
    public static void rehearse(Shell shell, String keys) {
        String type = System.getenv("TERM");
        if (type == null || type.isEmpty() || type.startsWith(Terminal.TYPE_DUMB)) type = "xterm-256color";
        TerminalCapabilities.useShipped(type);
        try {
            Terminal t = new DumbTerminal(null, null, "bufq-rehearsal", type,
                    new ByteArrayInputStream((keys + "\u0004").getBytes(StandardCharsets.UTF_8)),
                    OutputStream.nullOutputStream(), StandardCharsets.UTF_8, Terminal.SignalHandler.SIG_IGN);
            t.setSize(new Size(120, 40));
            Attributes a = t.getAttributes();
            a.setControlChar(Attributes.ControlChar.VEOF, 4);
            t.setAttributes(a);
            new JLineRepl(() -> t, InputStream.nullInputStream(), REHEARSAL_IDLE_MS).run(shell);
        } catch (IOException | RuntimeException | LinkageError e) {
            // the archive then lacks some of the line editor's classes: a slower prompt, nothing worse
        }
    }

    static Terminal systemTerminal() throws IOException {
        TerminalCapabilities.useShipped(System.getenv("TERM"));
        Terminal t;
        try {
            // JNI alone first: the exec provider would start a process ("test -t 1") just to look.
            t = builder().exec(false).dumb(false).build();
        } catch (IOException | RuntimeException | LinkageError e) {
            // No native library (a noexec /tmp, say): let JLine use stty, or fall back to dumb.
            t = builder().dumb(true).build();
        }
        return interruptible(t);
    }

    /**
     * A dumb terminal ({@code TERM=dumb}, or no usable tty driver) leaves the line discipline cooked,
     * so Ctrl-C reaches the JVM as SIGINT, which JLine registers no handler for there: the process
     * would die at the prompt. The signal is raised on the terminal instead, where the line reader and
     * a running statement handle it as they do on a real terminal.
     */
    static Terminal interruptible(Terminal t) {
        if (t.getType().startsWith(Terminal.TYPE_DUMB)) Signals.register("INT", () -> t.raise(Terminal.Signal.INT));
        return t;
    }

    private static TerminalBuilder builder() {
        // SIG_IGN: Ctrl-C never kills the JVM; JLine still reports it to the handlers we install.
        // The encoding JLine settles on anyway, given: left to itself it first asks whether a Windows
        // code page "ms0" exists, which loads the JDK's table of every extended charset (a third of
        // the CPU of opening the terminal).
        return TerminalBuilder.builder().system(true).jna(false).jansi(false).ffm(false)
                .encoding(Charset.defaultCharset())
                .nativeSignals(true).signalHandler(Terminal.SignalHandler.SIG_IGN);
    }

    @Override public int run(Shell shell) {
        Terminal t;
        try {
            t = terminals.open();
        } catch (IOException | RuntimeException | LinkageError e) {
            shell.printer().info("bufq: no line editing (" + e.getMessage() + "); reading plain lines");
            return new PlainRepl(fallbackIn).run(shell);
        }
        // The script engine is made here, on this thread; an idle prompt only starts it in the background.
        shell.scripts();
        try (Terminal closing = t) {
            return new Session(shell, closing).loop();
        } catch (IOException e) {
            shell.printer().error("terminal: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    /** The state of one interactive run. */
    private final class Session {
        private final Shell shell;
        private final Terminal terminal;
        private final HistoryFile historyFile;
        private final DefaultHistory history = new DefaultHistory();
        private final LineReader reader;
        private final Pager pager;
        private final IdlePrompt idle;
        private boolean historyBroken;

        Session(Shell shell, Terminal terminal) {
            this.shell = shell;
            this.terminal = terminal;
            this.historyFile = new HistoryFile(HistoryFile.location(shell.env().vars()), notice -> shell.printer().info("bufq: " + notice));
            this.pager = new Pager(shell, terminal);
            ReplParser parser = new ReplParser(() -> shell.engine().entities(), code -> shell.scripts().incomplete(code));
            Supplier<Catalog> catalog = () -> shell.engine().catalog();  // scripts may add fields
            this.reader = LineReaderBuilder.builder()
                    .terminal(terminal)
                    .appName("bufq")
                    .parser(parser)
                    .completer(new ReplCompleter(shell, catalog, parser))
                    .highlighter(new KeysSeen(new ReplHighlighter(shell, catalog, this::colour)))
                    .history(history)
                    .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION)
                    .variable(LineReader.HISTORY_SIZE, HistoryFile.MAX_ENTRIES)
                    // '!' is an operator (!=, !~), not a history reference.
                    .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                    .option(LineReader.Option.INSERT_TAB, false)
                    .build();
            // While the user reads the prompt: deferred reads, the script engine's start (the first 'js'
            // would wait seconds for it) and init.js, whose output is printed above the prompt.
            this.idle = new IdlePrompt(idleMs, stillIdle -> shell.idle(stillIdle, this::printAbove));
            shell.setPaste(this::paste);
        }

        /**
         * {@code oom -}: lines from the terminal up to an empty line or Ctrl-D (a bracketed paste with
         * blank lines in it comes as one line).
         *
         * @throws Paste.Cancelled on Ctrl-C
         */
        private String paste() throws Paste.Cancelled {
            terminal.writer().println(Paste.PROMPT);
            terminal.flush();
            LineReader r = LineReaderBuilder.builder().terminal(terminal).appName("bufq")
                    .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true).build();
            StringBuilder b = new StringBuilder();
            while (b.length() < Paste.MAX_BYTES) {
                String line;
                try {
                    line = r.readLine("paste> ");
                } catch (EndOfFileException e) {
                    break;
                } catch (UserInterruptException e) {
                    throw new Paste.Cancelled();
                }
                if (line.isBlank()) break;
                b.append(line).append('\n');
            }
            return b.toString();
        }

        /**
         * Tells the idle prompt of each key that changes the line. JLine redraws the line, asking its
         * highlighter, after every key: the one per-key hook its API offers.
         */
        private final class KeysSeen implements Highlighter {
            private final Highlighter inner;
            private String last = "";

            KeysSeen(Highlighter inner) {
                this.inner = inner;
            }

            @Override public AttributedString highlight(LineReader r, String buffer) {
                if (!buffer.equals(last)) {
                    last = buffer;
                    if (idle != null) idle.typing();
                }
                return inner.highlight(r, buffer);
            }

            @Override public void refresh(LineReader r) { inner.refresh(r); }
            @Override public void setErrorPattern(Pattern pattern) { inner.setErrorPattern(pattern); }
            @Override public void setErrorIndex(int index) { inner.setErrorIndex(index); }
        }

        /** What init.js printed at an idle prompt, above the prompt; dropped once the terminal is closed (the session ended). */
        private void printAbove(String text) {
            try {
                reader.printAbove(text.endsWith("\n") ? text.substring(0, text.length() - 1) : text);
            } catch (RuntimeException | IOError e) {
                // the session ended while init.js ran: nobody reads this terminal any more
            }
        }

        int loop() {
            loadHistory();
            if (Terminal.TYPE_DUMB.equals(terminal.getType()) && "auto".equals(shell.settings().color())) {
                try {
                    shell.settings().set(Setting.COLOR, "off");  // a dumb terminal shows escape codes as junk
                } catch (CommandException e) {
                    throw new IllegalStateException(e);
                }
            }
            // under 80 columns, so the first line a user sees does not wrap
            shell.printer().out().println("bufq " + Version.NUMBER + " - 'help' for commands and queries, Tab completes, Ctrl-D leaves.");
            shell.printer().out().flush();
            // a module read behind the prompt starts now that the terminal and line reader are ready,
            // and the query catalog is made beside it rather than at the first key the highlighter sees
            shell.modules().startLoading();
            Thread catalog = new Thread(() -> shell.engine().catalog(), "bufq-catalog");
            catalog.setDaemon(true);
            catalog.start();
            try (IdlePrompt closing = idle) {
                return prompts();
            }
        }

        private int prompts() {
            while (true) {
                shell.printer().setTerminalWidth(terminal.getWidth());
                int last = history.last();
                String line;
                try {
                    idle.prompting();
                    line = reader.readLine(prompt());
                } catch (UserInterruptException e) {
                    // Ctrl-C at the prompt: drop the line, stay. A dumb terminal leaves the cursor after
                    // the echoed ^C: the next prompt starts a line of its own.
                    if (terminal.getType().startsWith(Terminal.TYPE_DUMB)) shell.printer().out().println();
                    continue;
                } catch (EndOfFileException e) {
                    shell.printer().out().println();
                    break;
                } finally {
                    idle.busy();
                }
                if (history.last() > last) remember(history.get(history.last()));
                String text = ReplParser.toRun(line);
                if (text.isEmpty()) continue;
                shell.history().add(text);
                if (execute(text) == Status.QUIT) break;
            }
            saveHistory();
            return ExitCode.OK;
        }

        /**
         * Runs one statement; Ctrl-C meanwhile interrupts this thread, which cancels a query. Paged
         * output is shown after that, so Ctrl-C in the pager goes to the pager alone.
         */
        private Status execute(String text) {
            Thread runner = Thread.currentThread();
            Terminal.SignalHandler previous = terminal.handle(Terminal.Signal.INT, s -> {
                // The terminal echoed "^C" where the cursor was: "cancelled" goes on a line of its own.
                terminal.writer().println();
                terminal.flush();
                runner.interrupt();
            });
            Pager.Captured done;
            try {
                done = pager.capture(() -> shell.execute(text));
            } finally {
                terminal.handle(Terminal.Signal.INT, previous);
                Thread.interrupted();  // a late Ctrl-C must not cancel the next statement
            }
            pager.show(done.text());
            terminal.flush();
            return done.status();
        }

        private String prompt() {
            // the module read behind the first prompt is named by the handle it will have
            String handle = shell.modules().loadingHandle();
            if (handle == null && shell.current() != null) handle = shell.current().handle();
            String name = handle == null ? "bufq> " : "bufq(" + handle + ")> ";
            return name.replace("%", "%%");  // JLine expands %-sequences in prompts
        }

        private boolean colour() {
            return !shell.env().noColor() && !terminal.getType().startsWith("dumb")
                    && !"off".equals(shell.settings().color());
        }

        private void loadHistory() {
            try {
                List<String> saved = historyFile.load();
                for (String e : saved) history.add(Instant.now(), e);
                // 'history' lists the recent past (its table is cut at maxrows from the top); Ctrl-R has it all.
                for (String e : saved.subList(Math.max(0, saved.size() - EARLIER_LISTED), saved.size()))
                    shell.history().add(ReplParser.toRun(e));
            } catch (IOException | RuntimeException e) {
                historyBroken = true;
                shell.printer().info("bufq: cannot read history " + historyFile.path() + ": " + e.getMessage());
            }
        }

        private void remember(String entry) {
            historyFile.add(entry);
            saveHistory();
        }

        private void saveHistory() {
            if (historyBroken) return;  // never overwrite a history we could not read
            try {
                historyFile.save();
            } catch (IOException | RuntimeException e) {
                historyBroken = true;
                shell.printer().info("bufq: cannot save history to " + historyFile.path() + ": " + e.getMessage());
            }
        }
    }
}
