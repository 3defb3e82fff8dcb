package bufq.shell.session;

import bufq.format.FormatOptions;
import bufq.format.Formatter;
import bufq.format.Formatters;
import bufq.format.Result;
import bufq.format.Prose;
import bufq.format.TableFormatter;
import bufq.table.Output;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where a session's results and messages go: results through the output format to the sink (the
 * screen or an {@code output} file), messages, errors and timings to stderr with the running script's
 * location. It is the {@link CommandContext#out() output} commands print to. While the init script
 * runs at an idle prompt both are captured on its thread (see {@link InitScript}).
 */
public final class Printer {
    private final PrintStream out;
    private final PrintStream err;
    private final Env env;
    private final Settings settings;
    private final Supplier<OutputSink> capturedSink;
    private final Supplier<PrintStream> capturedErr;
    private Formatter format = Formatters.byName("table");
    private OutputSink sink;
    private int terminalWidth;
    /** The script file and line running, for messages; null at the prompt. */
    private String location;
    /** The statement running, until its first result is printed (for the echo setting). */
    private String statement;
    /** The results of the current format under way as one document (json's), until it ends. */
    private Formatter.Document document = format.document();
    /** Whether anything went to the current sink yet: the format's {@link Formatter#between} comes before the next. */
    private boolean sinkUsed;
    private boolean oneJsonDocument;

    public Printer(PrintStream out, PrintStream err, Env env, Settings settings,
            Supplier<OutputSink> capturedSink, Supplier<PrintStream> capturedErr) {
        this.out = out;
        this.err = err;
        this.env = env;
        this.settings = settings;
        this.capturedSink = capturedSink;
        this.capturedErr = capturedErr;
        this.sink = OutputSink.console(out);
        this.terminalWidth = columns(env);
    }

    /** {@code COLUMNS} when set, else the width the terminal reports ({@link Env#columns}), else 100. */
    static int columns(Env env) {
        try {
            int c = Integer.parseInt(env.vars().getOrDefault("COLUMNS", "").trim());
            if (c >= 20 && c <= 1000) return c;
        } catch (NumberFormatException e) {
            // not set or not a number: ask the terminal
        }
        return env.columns() >= 20 ? env.columns() : 100;
    }

    /**
     * Prints one statement's results through the current format, whole: tables are cut to
     * {@code maxrows} in formats for people, and with {@code echo on} the statement heads them.
     * Results in one output follow one another as the format says (a blank line between two in
     * markdown, so pasted results render as separate tables; one document in json).
     *
     * @throws CommandException the format cannot hold these results (csv of several tables)
     */
    public void print(List<? extends Output> outputs) throws IOException, CommandException {
        StringBuilder b = new StringBuilder();
        if (sinkUsed) b.append(format.between());
        Result result = new Result(outputs, settings.echo() ? statement : null, settings.maxRows());
        statement = null;
        try {
            format.write(result, formatOptions(), b);
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
        sinkUsed = true;
        add(b.toString());
    }

    public void print(Output output) throws IOException, CommandException { print(List.of(output)); }

    /**
     * Writes one JSON document (a script's value in json), into the document under way as a result
     * is: a batch run ({@link #setOneJsonDocument}) gets one document in all, its first result alone
     * or, once a second comes, an array of the results in order (closed when the output ends, the
     * format changes or the run ends), so {@code json.load} reads any run. Otherwise (the interactive
     * shell) each statement is one document in the same way: a statement that prints lines and a
     * value, or several tables, prints one array.
     */
    public void printJson(String document) throws IOException { add(document); }

    /**
     * A line a script prints ({@code print}), as the format holds a line: in json a document of its
     * own, {@code {"print": LINE}} (an entry of a batch run's array), so the output stays JSON that
     * {@code jq} and {@code json.load} read; in the other formats the line as it is.
     */
    public void printLine(String line) throws IOException {
        StringBuilder b = new StringBuilder();
        format.line(line, formatOptions(), b);
        add(b.toString());
    }

    /** Writes {@code rendered} into the document under way; the init script's output at an idle prompt is one of its own. */
    private void add(String rendered) throws IOException {
        String text = document.add(rendered, capturedSink.get() != null);
        if (text != null) write(text);
    }

    /** Ends the document under way (json's one held result, or its array's close). */
    public void endDocument() throws IOException {
        String end = document.end();
        if (!end.isEmpty()) write(end);
    }

    /** Ends a statement's document, unless a batch run makes one document of all. */
    public void endStatement() throws IOException {
        if (!oneJsonDocument) endDocument();
    }

    private void write(String text) throws IOException {
        OutputSink captured = capturedSink.get();
        if (captured != null) {
            captured.write(text);  // the init script run at an idle prompt: shown above the prompt
            return;
        }
        try {
            sink.write(text);
        } catch (IOException e) {
            if (sink.isConsole()) throw e;
            // A full disk: drop the file (it is never published half-written) and go back to the screen.
            OutputSink broken = sink;
            sink = OutputSink.console(out);
            try {
                broken.close();
            } catch (IOException expected) {
                // close() reports that the file was not written; we say so below
            }
            throw new IOException("writing " + broken.target() + " failed (" + e.getMessage()
                    + "); the file was not written and results go to the screen again", e);
        }
    }

    public FormatOptions formatOptions() {
        boolean color = switch (settings.color()) {
            case "on" -> true;
            case "off" -> false;
            default -> env.interactive();
        };
        // On a terminal a table fits its width and csv and tsv escape control characters; a pipe
        // or a file gets every column and the data exact, its lines folded at foldwidth.
        boolean terminal = env.interactive() && sink.isConsole();
        // 'set maxwidth 0' shows cells whole, as it says: the table is then not cut to the terminal either
        return new FormatOptions(settings.rawSizes(), color && !env.noColor() && sink.isConsole(),
                terminal ? settings.maxWidth() : 0, terminal && settings.maxWidth() > 0 ? terminalWidth : 0, terminal,
                terminal ? 0 : settings.foldWidth());
    }

    /**
     * The notes under a table reach the reader with the results: the format prints them and the
     * results go to stdout (a terminal or a pipe), not to an {@code output} file. Where they do not, a
     * command repeats what matters on stderr; where they do, a repeat would print it twice.
     */
    public boolean notesWithResults() {
        return sink().isConsole() && format.forPeople();
    }

    /** Results go to a terminal (stdin and stdout are one, and no {@code output} file is open). */
    public boolean onTerminal() { return env.interactive() && sink().isConsole(); }

    /** A line of information for the user (stderr, so stdout stays data). */
    public void info(String message) { err().println(onScreen(TableFormatter.visible(message, true))); }

    /** A message for stderr, fitted to the terminal's width when there is one ({@link Prose}). */
    private String onScreen(String message) {
        return env.interactive() ? Prose.fit(message, terminalWidth) : message;
    }

    /** Prints a one-line error, with the script location when running one. */
    public void error(String message) {
        // bufq's own messages quote what a script or a file wrote: never a control character raw
        err().println(onScreen(TableFormatter.visible((location == null ? "" : location + ": ") + "error: " + message, true)));
    }

    /**
     * Text a script made, as it may be shown: on a terminal its control characters escaped
     * ({@code \x1b}) as table cells are, so {@code print("\x1b]2;...\x07")} cannot rename the window;
     * to a file or a pipe exact. {@code toStderr}: for stderr, which a file sink does not take.
     */
    public String forScreen(String text, boolean toStderr) {
        boolean screen = env.interactive() && (toStderr || sink.isConsole());
        return screen ? TableFormatter.visible(text, true) : text;
    }

    /** A rendered diagnostic (the query, a caret, the message), after the script location. */
    public void diagnostic(String rendered) {
        if (location != null) err.println(TableFormatter.visible(location + ":", true));
        err.println(TableFormatter.visible(rendered.endsWith("\n") ? rendered.substring(0, rendered.length() - 1) : rendered, true));
    }

    /** A bug in bufq, not the user's doing: one line, or the stack trace with BUFQ_DEBUG set. */
    public void internalError(Throwable e) {
        err().println((location == null ? "" : location + ": ") + "bufq: internal error: " + e
                + " (run with BUFQ_DEBUG=1 for the stack trace)");
        if (env.debug()) e.printStackTrace(err());
    }

    public Formatter format() { return format; }

    /** Switches the output format; a document under way ends first. */
    public void setFormat(Formatter f) {
        if (f == format) return;
        try {
            endDocument();
        } catch (IOException e) {
            error(e.getMessage());
        }
        format = f;
        document = f.document();
    }

    /** A batch run: its json results make one document (see {@link #printJson}). */
    public void setOneJsonDocument(boolean on) { oneJsonDocument = on; }

    /** The screen, for output going back to it. */
    public PrintStream out() { return out; }

    /** Where messages go: stderr, or the buffer of an init script running at an idle prompt (on its thread). */
    public PrintStream err() {
        PrintStream captured = capturedErr.get();
        return captured != null ? captured : err;
    }

    /** Where results go: the sink, or the buffer of an init script running at an idle prompt (on its thread). */
    public OutputSink sink() {
        OutputSink captured = capturedSink.get();
        return captured != null ? captured : sink;
    }

    /** Closes the current sink (publishing a file) and switches to {@code next}. */
    public void switchSink(OutputSink next) throws IOException {
        if (!(sink.isConsole() && next.isConsole())) endDocument();  // the document ends with its file
        OutputSink old = sink;
        sink = next;
        sinkUsed = false;
        old.close();
    }

    /** Columns available for charts: {@code COLUMNS}, or what the REPL's terminal reports, else 100. */
    public int terminalWidth() { return terminalWidth; }
    public void setTerminalWidth(int columns) { if (columns >= 20) terminalWidth = columns; }

    /** Stderr itself, never the init script's capture: progress lines of a module scan. */
    PrintStream stderr() { return err; }

    public String location() { return location; }

    /** Runs {@code body} with no script location: the init script's errors name its own file and line. */
    public void outsideScript(Runnable body) {
        String saved = location;
        location = null;
        try {
            body.run();
        } finally {
            location = saved;
        }
    }

    public void setLocation(String where) { location = where; }
    /** The statement starting, for the echo setting. */
    public void setStatement(String text) { statement = text; }
}
