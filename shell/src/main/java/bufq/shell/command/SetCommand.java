package bufq.shell.command;

import bufq.api.CapacitySaid;
import bufq.api.Categorize;
import bufq.eval.Catalog;
import bufq.lang.Diagnostic;
import bufq.lang.QueryException;
import bufq.shell.session.Engine;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.statement.Words;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Setting;
import bufq.shell.session.Settings;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;
import bufq.lang.NearNames;
import bufq.table.ColumnType;
import bufq.table.Table;
import bufq.units.Units;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class SetCommand implements Command {
    @Override public String name() { return "set"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.forms(
            ArgGrammar.of("set").positional("NAME", ArgKind.TEXT).optional().rest("VALUE", "VALUE").optional(),
            ArgGrammar.of("set").positionalChoice("category", List.of("category"), List.of()).rest("RULE", "NAME = CONDITION | off").optional());

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() { return "Shows or changes settings (see 'help settings')."; }

    @Override public String description() {
        return "Changes a setting and confirms it in one line (a size with its exact bytes); with NAME alone shows\n"
                + "it, with nothing lists them all (see 'help settings'). 'set format NAME' is 'format NAME'.\n"
                + "'set category NAME = CONDITION' adds a category rule: the values 'values where CONDITION' selects are NAME in\n"
                + "'blame by category', 'blame by path' and the category field, before the built-in rules and after the\n"
                + "rules added earlier (the first that holds names a value); in CONDITION, category is the built-in one.\n"
                + "'set category' lists the rules, 'set category off' drops them all.";
    }

    @Override public List<String> examples() {
        return List.of("set", "set maxrows 50", "set rawsizes on", "set threshold 64KiB",
                "set category kv_cache = op_name ~ \"cache\"", "set category");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        String text = CommandPlan.statement(args);
        ParsedArgs a = GRAMMAR.parse(text);
        if (a.has("category")) {
            String rule = a.has("RULE") ? a.text("RULE") : "";
            return new CommandPlan.Simple(false, false, false, c -> category(c, text, rule));
        }
        return new CommandPlan.Simple(false, true, tilingNotKnown(ctx, a), c -> run(c, a));
    }

    /** {@code set tiling NAME} of a model not known yet: the init script may register it. */
    private static boolean tilingNotKnown(CommandContext ctx, ParsedArgs a) {
        return a.has("VALUE") && Setting.byKey(a.text("NAME")) == Setting.TILING && !a.text("VALUE").contains(" ")
                && ctx.settings().tilingNamed(a.text("VALUE")) == null;
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, IOException {
        // the value is the rest of the line: set capacity 16 GiB
        List<String> args = new ArrayList<>(a.texts("NAME"));
        if (a.has("VALUE")) args.add(value(a.text("VALUE")));
        if (args.isEmpty()) {
            ctx.out().print(table(ctx, Arrays.asList(Setting.values())));
            return Status.OK;
        }
        if (args.get(0).equals("format") && args.size() == 2) {
            // the format is a command of its own; 'set format csv' is how many shells spell it
            FormatCommand.use(ctx, args.get(1).strip());
            ctx.out().info("format = " + ctx.out().format().name());
            return Status.OK;
        }
        Setting s = Setting.byKey(args.get(0));
        if (s == null) {
            List<String> keys = Arrays.stream(Setting.values()).map(Setting::key).toList();
            List<String> near = new ArrayList<>(keys);
            near.add("format");
            near.add("category");
            throw a.error("NAME", "unknown setting '" + args.get(0) + "'"
                    + (NearNames.near(args.get(0), near).isEmpty() ? " (settings: " + String.join(", ", keys) + ")" : ""), near);
        }
        if (args.size() == 1) ctx.out().print(table(ctx, List.of(s)));
        else {
            // a model a script registered is tried on the module now, not at the next query
            if (s == Setting.TILING) TilingTrial.check(ctx.settings().tilingNamed(args.get(1).trim().toLowerCase(Locale.ROOT)),
                    ctx.modules().current(), ctx.settings().text(s));
            ctx.settings().set(s, args.get(1));
            ctx.out().info(confirmation(s, ctx.settings().text(s)));
        }
        return Status.OK;
    }

    /**
     * The one line {@code set NAME VALUE} answers with, on stderr: the value as the listing shows it,
     * and for a size its exact bytes, so {@code set capacity 16G} says it took 16 GB, not 16 GiB:
     * {@code capacity = 16GiB (17,179,869,184 B)}; for a device the memory it stands for.
     */
    static String confirmation(Setting s, String text) {
        String line = s.key() + " = " + text;
        if (text.equals("none")) return line;
        if (s == Setting.CAPACITY || s == Setting.RESERVED || s == Setting.THRESHOLD) {
            try {
                return line + " (" + Units.grouped(Units.parse(text, false)) + " B)";
            } catch (NumberFormatException e) {
                return line;   // stored already, so it parsed; a shown form that does not is left as it is
            }
        }
        if (s == Setting.DEVICE && CapacitySaid.device(text) != null) return line + " (" + CapacitySaid.device(text).memory() + ")";
        return line;
    }

    /** {@code set category}, {@code set category off}, {@code set category NAME = CONDITION}; {@code line} is all after 'set'. */
    private static Status category(CommandContext ctx, String line, String rule)
            throws CommandException, Engine.Failure, IOException {
        if (rule.isEmpty()) {
            ctx.out().print(Categorize.rules(ctx.engine().catalog()));
            return Status.OK;
        }
        UnaryOperator<Catalog> next;
        if (rule.equalsIgnoreCase("off")) next = Categorize::builtinOnly;
        else {
            Matcher m = RULE.matcher(rule);
            if (!m.matches()) throw new CommandException("set category takes NAME = CONDITION (a query condition on values), or off, not '"
                    + rule + "'");
            String statement = "set " + line;
            int at = statement.length() - m.group(2).length();
            int name = statement.indexOf(m.group(1), "set category".length());
            try {
                Categorize.checkName(m.group(1));
            } catch (IllegalArgumentException e) {
                throw new Engine.Failure(new Diagnostic(name, name + m.group(1).length(), e.getMessage()).render(statement));
            }
            try {
                next = Categorize.addCondition(ctx.engine().catalog(), m.group(1), m.group(2), at);
            } catch (QueryException e) {
                throw new Engine.Failure(e.diagnostic().render(statement));
            }
        }
        ctx.engine().setCategories(next);
        return Status.OK;
    }

    /** A value as the shell's words read it: blanks between words made one, quotes around a word dropped. */
    private static String value(String typed) throws CommandException {
        return String.join(" ", Words.split(typed));
    }

    private static final Pattern RULE = Pattern.compile("(?s)([^\\s=]+)\\s*=\\s*(.*\\S)\\s*");

    static Table table(CommandContext ctx, List<Setting> settings) {
        Table.Builder b = Table.builder().key("settings").column("name", ColumnType.STRING).column("value", ColumnType.STRING)
                .column("values", ColumnType.STRING).column("default", ColumnType.STRING).column("doc", ColumnType.STRING);
        for (Setting s : settings) b.row(s.key(), ctx.settings().text(s), s.syntax(), Settings.defaultText(s), s.doc());
        return b.build();
    }
}
