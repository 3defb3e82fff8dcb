package bufq.shell.command;

import bufq.api.CapacitySaid;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.api.CommandDoc;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Setting;
import bufq.shell.session.Settings;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;
import bufq.lang.NearNames;
import bufq.table.ColumnType;
import bufq.table.Table;
import bufq.table.TextBlock;
import bufq.units.Unit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class HelpCommand implements Command {
    static final String QUERY = """
            Queries

              <entity> [where <expr>] [group by <field>, ...] [show <item>, ...]
                       [order by <key> [asc|desc], ...] [limit <n>]

            The clauses after the entity may come in any order, each at most once.
            Entities: %s ('fields ENTITY' lists the fields of one).

            Expressions: = != < <= > >=, ~ and !~ (regex find), [not] in (...), is [not] null,
            and, or, not, ( ). A boolean field alone is a test: allocations where temp.
            Numbers may carry size units: 4KiB, 1.5MiB, 2GiB, 8M (powers of 1024; KB, MB, GB are
            powers of 1000; 'help units'). Strings are in double or single quotes; text with ( ) or / needs them:
            op_name = "jit(step)/jvp()/div". After ~ a backslash escapes for the regex: "^jit\\(step\\)".
            Keywords and entities are case-insensitive; a trailing ; is fine; -- and # start comments.
            Liveness: live at <t> (a step number, peak: the first step with the most occupied bytes,
                      peak(N) for the N-th of 'peaks' (peak(N, min_share 5%%) or peak(N, color 1)
                      for 'peaks' with those options), claimed_peak: the step the dump labels its
                      peak, or an instruction name such as fusion.2);
                      live during <a>..<b> (live at any step between a and b, both included).
            Order by also takes arithmetic on numeric fields: order by size * idle_steps desc (* / +).
            Strings order naturally, since HLO names end in numbers: digit runs compare by value, so
            fusion.2 comes before fusion.10 (order by, group by, min, max, < and > alike).
            Aggregates in show: count(), sum(f), min(f), max(f), avg(f); 'as name' renames a column and
            the name can be used in order by. Without show each entity prints its default columns.
            In scripts a query may go on over several lines: end a line with 'and', 'where', ',' ...,
            or start the next one with where, and, or, group, show, order or limit.

            Examples
              values where color=1 and live at 13
              values where live at peak order by size desc limit 10
              values where live at peak show sum(logical_size)
              values where name ~ "fusion" and size >= 4KiB show id, name, size, offset, allocation
              values group by color show color, count(), sum(size)
              values where live during 5..9 and color = 1 order by offset
              allocations where temp order by size desc
              instructions where opcode = "fusion" and op_name ~ "softmax"
              steps order by live_bytes desc limit 5

            The full grammar is in query-engine/GRAMMAR.md.
            """;

    static final String FORMATS = """
            Formats ('format NAME', or --format NAME on the command line)

              table     aligned columns for the terminal; sizes as 4.0KiB (set rawsizes on for bytes),
                        fractions as 12.5%, null as empty, a (N rows) footer; cut at maxrows rows, cells
                        wider than maxwidth end in …; a table too wide for the terminal prints as vertical;
                        a pipe or file gets every cell whole, lines folded at foldwidth (400)
              vertical  one field per line ('name | value'), a -[ RECORD N ]- line before each row, as
                        psql's \\x and MySQL's \\G: for wide rows; every cell whole, prose wrapped
              markdown  a GitHub table for bug reports; same cell text as table, never cut within a
                        cell; charts and trees in code fences; cut at maxrows rows
              csv       header row, RFC 4180 quoting, raw numbers, null as an empty field; never cut.
                        Several tables: a section each, a '# NAME' line (the name json gives it) then
                        the table, a blank line between two
              tsv       like csv with tabs; tabs, newlines and backslashes in cells escaped as \\t \\n \\\\
              json      an array of row objects: numbers as numbers, null as null; never cut. A command
                        that prints several tables prints one object of named tables; text prints as
                        a JSON string. A script's print(...) lines are {"print": "LINE"}. Each statement
                        (a batch run: the whole run) is one JSON document, for jq and json.load
              ndjson    one JSON object a line, a row each, its first key "table" naming its table
                        (untitled query results: "result"): a stream for jq -c, DuckDB's read_json_auto
                        or a log shipper; text is {"text": ...}, a script's print {"print": ...}
            """;

    @Override public String name() { return "help"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("help").positional("TOPIC", ArgKind.TOPIC).optional();

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() { return "Help on a command or topic: query, formats, settings."; }

    @Override public String description() {
        return "Shows the commands, or details and examples for one: TOPIC is a command name, 'query' (the\n"
                + "grammar with examples), 'formats', 'settings', 'device' or 'units'.";
    }

    @Override public List<String> examples() { return List.of("help", "help query", "help output", "help settings"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, IOException {
        List<String> args = a.texts("TOPIC");
        if (args.size() == 1 && (args.get(0).equals("device") || args.get(0).equals("devices"))) {
            ctx.out().print(CapacitySaid.deviceTable());   // the accelerators 'set device' knows, with the source of each figure
            return Status.OK;
        }
        if (args.size() == 1 && args.get(0).equals("units")) {
            ctx.out().print(unitsTable());
            return Status.OK;
        }
        ctx.out().print(new TextBlock(args.isEmpty() ? overview(ctx) : topic(ctx, args.get(0))));
        return Status.OK;
    }

    /** The one table of size units that every flag, setting, query and reader reads through. */
    private static Table unitsTable() {
        Table.Builder b = Table.builder().key("units").column("unit", ColumnType.STRING).column("bytes", ColumnType.INT)
                .column("meaning", ColumnType.STRING);
        for (Unit u : Unit.values()) b.row(u.symbol(), u.bytes(), u.meaning());
        return b.note("case does not matter (16gib is 16GiB); a capacity or reservation needs a unit (16B, 16GiB);"
                + " a fraction of a byte (15.48G) rounds to the nearest byte").build();
    }

    private static String overview(CommandContext ctx) {
        StringBuilder b = new StringBuilder();
        String intro = "A line that starts with an entity (" + String.join(", ", ctx.engine().entities())
                + ") is a query; see 'help query'. Anything else is a command:";
        for (String l : wrap(intro, Math.max(20, ctx.out().terminalWidth() - 1))) b.append(l).append('\n');
        b.append('\n');
        // Synopses up to SYNOPSIS_COLUMN wide share a line with their description; a longer one
        // (map's is 68) gets a line of its own, so descriptions start near the left on any terminal.
        int w = 0;
        for (CommandDoc c : ctx.session().commands().all()) w = Math.max(w, Math.min(SYNOPSIS_COLUMN, c.synopsis().length()));
        int room = Math.max(20, ctx.out().terminalWidth() - w - 5);
        for (CommandDoc c : ctx.session().commands().all()) {
            if (c.synopsis().length() > w) {
                for (String l : wrapSynopsis(c.synopsis(), Math.max(20, ctx.out().terminalWidth() - 3))) b.append("  ").append(l).append('\n');
                b.append(" ".repeat(w + 2));
            } else {
                b.append("  ").append(c.synopsis()).append(" ".repeat(w - c.synopsis().length()));
            }
            List<String> lines = wrap(c.brief(), room);
            for (int i = 0; i < lines.size(); i++) {
                if (i > 0) b.append(" ".repeat(w + 2));
                b.append("  ").append(lines.get(i)).append('\n');
            }
        }
        b.append("\nMore: help COMMAND, help query, help formats, help settings.\n");
        return b.toString();
    }

    /** Widest synopsis that shares its line with the description in 'help'. */
    static final int SYNOPSIS_COLUMN = 24;

    /**
     * A command's description fitted to {@code width}: each paragraph of prose (lines that do not
     * start with a blank) joined and wrapped again; indented lines (tables, examples) and blank
     * lines kept as written.
     */
    static String reflow(String text, int width) {
        List<String> out = new ArrayList<>();
        StringBuilder prose = new StringBuilder();
        // A row of an indented table (NAME  what it does), with the lines that continue it under its text.
        StringBuilder row = null;
        int rowColumn = 0, lastColumn = 0;
        for (String line : text.split("\n", -1)) {
            boolean indented = !line.isBlank() && Character.isWhitespace(line.charAt(0));
            if (row != null && indented && leadingBlanks(line) == rowColumn) {
                row.append(' ').append(line.strip());
                continue;
            }
            if (row != null) {
                out.addAll(hang(row.toString(), rowColumn, width));
                row = null;
            }
            if (!line.isBlank() && !indented) {
                if (prose.length() > 0) prose.append(' ');
                prose.append(line.strip());
                // A line that ends in a colon introduces what follows: it ends its paragraph.
                if (line.stripTrailing().endsWith(":")) {
                    out.addAll(wrap(prose.toString(), width));
                    prose.setLength(0);
                }
                continue;
            }
            if (prose.length() > 0) {
                out.addAll(wrap(prose.toString(), width));
                prose.setLength(0);
            }
            Matcher m = COLUMN.matcher(line);
            int column = indented && m.find() ? m.end() : -1;
            // A name as long as its column leaves one blank before the text: the table's column still holds.
            if (column < 0 && indented && lastColumn > 0 && line.length() > lastColumn && line.charAt(lastColumn - 1) == ' '
                    && line.charAt(lastColumn) != ' ' && leadingBlanks(line) < lastColumn - 1) column = lastColumn;
            if (column > 0) {
                row = new StringBuilder(line.stripTrailing());
                rowColumn = lastColumn = column;
            } else {
                out.add(line);
                if (line.isBlank()) lastColumn = 0;
            }
        }
        if (row != null) out.addAll(hang(row.toString(), rowColumn, width));
        if (prose.length() > 0) out.addAll(wrap(prose.toString(), width));
        return String.join("\n", out);
    }

    private static int leadingBlanks(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') i++;
        return i;
    }

    /**
     * An indented line (a row of a table of names and what they do) in lines of at most {@code width}:
     * its text, from {@code column}, continues under itself. A line that fits is kept, and one whose
     * column leaves too little room.
     */
    static List<String> hang(String line, int column, int width) {
        if (line.length() <= width || column > width / 2) return List.of(line);
        String pad = " ".repeat(column);
        List<String> out = new ArrayList<>();
        List<String> rest = wrap(line.substring(column), width - column);
        for (int i = 0; i < rest.size(); i++) out.add((i == 0 ? line.substring(0, column) : pad) + rest.get(i));
        return out;
    }

    private static final Pattern COLUMN = Pattern.compile("^\\s+\\S.*?\\s{2,}(?=\\S)");

    /** {@code text} in lines of at most {@code width} characters, broken at blanks (a longer word stays whole). */
    static List<String> wrap(String text, int width) {
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                out.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) line.append(' ');
            line.append(word);
        }
        out.add(line.toString());
        return out;
    }

    /** How far a synopsis's later lines are indented past its first, so they read as its continuation. */
    static final int SYNOPSIS_INDENT = 4;

    /**
     * A synopsis in lines of at most {@code width} characters, broken only between its top-level
     * parts: a bracketed option ({@code [by stack|op_name|source]}, {@code [--svg FILE | --html FILE]})
     * stays on one line. Later lines are indented by {@link #SYNOPSIS_INDENT}.
     */
    static List<String> wrapSynopsis(String synopsis, int width) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        int depth = 0;
        for (char ch : synopsis.toCharArray()) {
            if (ch == ' ' && depth == 0) {
                if (part.length() > 0) parts.add(part.toString());
                part.setLength(0);
                continue;
            }
            if (ch == '[' || ch == '(') depth++;
            if ((ch == ']' || ch == ')') && depth > 0) depth--;
            part.append(ch);
        }
        if (part.length() > 0) parts.add(part.toString());
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        String indent = " ".repeat(SYNOPSIS_INDENT);
        for (String p : parts) {
            if (line.length() > 0 && line.length() + 1 + p.length() > width) {
                out.add(line.toString());
                line.setLength(0);
                line.append(indent);
            }
            if (line.length() > 0 && !line.toString().equals(indent)) line.append(' ');
            line.append(p);
        }
        out.add(line.toString());
        return out;
    }

    private static String topic(CommandContext ctx, String topic) throws CommandException {
        switch (topic) {
            case "query", "queries", "grammar" -> {
                return String.format(QUERY, String.join(", ", ctx.engine().entities()));
            }
            case "formats" -> {
                return reflow(FORMATS, Math.max(20, ctx.out().terminalWidth() - 1));
            }
            case "settings" -> {
                return settings();
            }
            default -> { }
        }
        CommandDoc c = ctx.session().commands().byName(topic);
        if (c == null) {
            List<String> topics = new ArrayList<>(ctx.session().commands().names());
            topics.addAll(List.of("query", "formats", "settings", "device", "units"));
            throw new CommandException("no help on '" + topic + "'" + NearNames.hint(topic, topics)
                    + " (topics: commands, query, formats, settings, device, units)");
        }
        StringBuilder b = new StringBuilder(String.join("\n", wrapSynopsis(c.synopsis(), Math.max(20, ctx.out().terminalWidth() - 1))))
                .append("\n\n").append(reflow(c.description(), Math.max(20, ctx.out().terminalWidth() - 1))).append('\n');
        if (!c.aliases().isEmpty()) b.append("\nAlso: ").append(String.join(", ", c.aliases())).append('\n');
        b.append("\nExamples:\n");
        for (String e : c.examples()) b.append("  ").append(e).append('\n');
        if (c.name().equals("format")) b.append('\n').append(reflow(FORMATS, Math.max(20, ctx.out().terminalWidth() - 1)));
        return b.toString();
    }

    private static String settings() {
        StringBuilder b = new StringBuilder("Settings ('set NAME VALUE'; 'set' lists the current values)\n\n");
        for (Setting s : Setting.values())
            b.append(String.format("  %-10s %-12s default %-7s %s%n", s.key(), s.syntax(), Settings.defaultText(s), s.doc()));
        return b.toString();
    }
}
