package bufq.shell.repl;

import bufq.eval.Catalog;
import bufq.lang.Diagnostic;
import bufq.lang.assist.Highlight;
import bufq.lang.Lexer;
import bufq.model.HloModule;
import bufq.shell.run.Shell;
import bufq.shell.statement.StatementKind;
import org.jline.reader.Highlighter;
import org.jline.reader.LineReader;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

import java.util.Arrays;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Colours the line as it is typed, from the query engine's {@link Highlight}: keywords, the entity, fields,
 * numbers (the unit stands out), strings. The first error of an invalid query is shown in red once
 * the user has typed past it (an unfinished query is not an error yet), as is the spot JLine
 * reports through {@link #setErrorIndex}. A command name is bold, or red when unknown. Plain text
 * when colour is off ({@code NO_COLOR}, a dumb terminal, {@code set color off}).
 */
public final class ReplHighlighter implements Highlighter {
    static final AttributedStyle KEYWORD = AttributedStyle.BOLD.foreground(AttributedStyle.BLUE);
    static final AttributedStyle ENTITY = AttributedStyle.BOLD;
    static final AttributedStyle FIELD = AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);
    static final AttributedStyle NUMBER = AttributedStyle.DEFAULT.foreground(AttributedStyle.MAGENTA);
    static final AttributedStyle UNIT = AttributedStyle.BOLD.foreground(AttributedStyle.MAGENTA);
    static final AttributedStyle FUNCTION = AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
    static final AttributedStyle STRING = AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
    static final AttributedStyle ERROR = AttributedStyle.BOLD.foreground(AttributedStyle.RED).underline();
    static final AttributedStyle COMMAND = AttributedStyle.BOLD;

    private final Shell shell;
    private final Supplier<Catalog> catalog;
    private final BooleanSupplier color;
    private int errorIndex = -1;

    /** @param color asked on every keystroke, so {@code set color off} takes effect at once */
    public ReplHighlighter(Shell shell, Supplier<Catalog> catalog, BooleanSupplier color) {
        this.shell = shell;
        this.catalog = catalog;
        this.color = color;
    }

    @Override public AttributedString highlight(LineReader reader, String buffer) {
        if (!color.getAsBoolean()) return new AttributedString(buffer);
        AttributedStyle[] styles = styles(buffer);
        AttributedStringBuilder b = new AttributedStringBuilder(buffer.length());
        for (int i = 0; i < buffer.length(); i++) b.style(styles[i]).append(buffer.charAt(i));
        return b.toAttributedString();
    }

    /** The style of every character of {@code buffer}. */
    AttributedStyle[] styles(String buffer) {
        AttributedStyle[] s = new AttributedStyle[buffer.length()];
        Arrays.fill(s, AttributedStyle.DEFAULT);
        String text = ReplParser.statement(buffer);
        if (StatementKind.isQuery(text, shell.engine().entities(), w -> shell.commands().byName(w) != null)) query(text, s);
        else command(buffer, s);
        if (errorIndex >= 0 && errorIndex < s.length) s[errorIndex] = ERROR;
        return s;
    }

    private void query(String text, AttributedStyle[] s) {
        Highlight.Result r = Highlight.of(text, catalog.get());
        for (Highlight.Span sp : r.spans()) {
            AttributedStyle st = switch (sp.style()) {
                case KEYWORD -> KEYWORD;
                case ENTITY -> ENTITY;
                case FIELD -> FIELD;
                case FUNCTION -> FUNCTION;
                case STRING -> STRING;
                case NUMBER -> {
                    String unit = Lexer.splitNumber(text.substring(sp.start(), sp.end()))[1];
                    paint(s, sp.end() - unit.length(), sp.end(), UNIT);
                    yield NUMBER;
                }
                // A bad token is only an error once the user has typed past it.
                case ERROR -> sp.end() < text.length() ? ERROR : null;
                // The query compiles against the catalog alone; the module knows its instructions.
                case INSTRUCTION -> sp.end() < text.length() && unknownInstruction(text.substring(sp.start(), sp.end())) ? ERROR : null;
                default -> null;
            };
            if (st == null) continue;
            int end = sp.style() == Highlight.Style.NUMBER
                    ? sp.end() - Lexer.splitNumber(text.substring(sp.start(), sp.end()))[1].length() : sp.end();
            paint(s, sp.start(), end, st);
        }
        // "values where" is unfinished, not wrong; "values where colr" may still become "color".
        Diagnostic d = r.error();
        if (d != null && !r.incomplete()) {
            int end = Math.max(d.end(), d.start() + 1);
            if (end < text.length() && end <= text.stripTrailing().length()) paint(s, d.start(), end, ERROR);
        }
    }

    /** A step name the current module does not schedule (a cheap index lookup, nothing read). */
    private boolean unknownInstruction(String name) {
        HloModule m = shell.current();
        return m != null && !m.sequence().isEmpty() && m.timeOf(name) < 0;
    }

    private void command(String text, AttributedStyle[] s) {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) i++;
        int start = i;
        while (i < text.length() && !Character.isWhitespace(text.charAt(i))) i++;
        if (start == i) return;
        String name = text.substring(start, i);
        if (name.startsWith("#")) return;
        if (shell.commands().byName(name) != null) paint(s, start, i, COMMAND);
        else if (i < text.length()) paint(s, start, i, ERROR);  // typed past an unknown command
        for (int j = i; j < text.length(); j++) {
            if (text.charAt(j) != '"') continue;
            int k = j + 1;
            while (k < text.length() && text.charAt(k) != '"') k += text.charAt(k) == '\\' ? 2 : 1;
            paint(s, j, Math.min(k + 1, text.length()), STRING);
            j = k;
        }
    }

    private static void paint(AttributedStyle[] s, int from, int to, AttributedStyle st) {
        for (int i = Math.max(0, from); i < Math.min(to, s.length); i++) s[i] = st;
    }

    @Override public void setErrorPattern(Pattern pattern) { }
    @Override public void setErrorIndex(int index) { errorIndex = index; }
}
