package bufq.shell.repl;

import bufq.units.Units;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.FieldInfo;
import bufq.eval.Query;
import bufq.api.Fitting;
import bufq.api.Reports;
import bufq.format.Formatters;
import bufq.lang.assist.Completion;
import bufq.lang.Lexer;
import bufq.lang.QueryException;
import bufq.lang.Token;
import bufq.lang.TokenKind;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.session.ModuleSet;
import bufq.shell.session.Setting;
import bufq.shell.run.Shell;
import bufq.shell.statement.StatementKind;
import bufq.table.ColumnType;
import bufq.table.NaturalOrder;
import bufq.table.Table;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;
import org.jline.reader.impl.completer.FileNameCompleter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tab completion that knows where the cursor is. At the start: commands and entities. In a query,
 * what {@link Completion#at} says the grammar allows (fields of the entity, keywords, clauses),
 * plus the module's scheduled instruction names after {@code live at}/{@code during} and the
 * values a string field really has (quoted) after {@code =}, {@code ~} or {@code in (}. After a
 * command, what its {@link bufq.shell.api.ArgGrammar} says comes next ({@link GrammarCompleter}):
 * keywords and choices, then by the value's kind module handles, paths, instructions, entities,
 * help topics, tiling models, value names, a query; besides, settings and their values
 * ({@code set}: devices, sizes) and programs and their arrays ({@code fit}).
 */
public final class ReplCompleter implements Completer {
    /** Topics {@code help} knows besides command names (see HelpCommand). */
    static final List<String> HELP_TOPICS = List.of("query", "formats", "settings");
    /** More candidates than this from one module are cut: nobody reads ten thousand names. */
    static final int MAX_NAMES = 2000;

    private final Shell shell;
    private final Supplier<Catalog> catalog;
    private final ReplParser parser;
    private final FileNameCompleter files = new FileNameCompleter();
    private final Map<String, List<String>> distinctCache = new HashMap<>();

    public ReplCompleter(Shell shell, Supplier<Catalog> catalog, ReplParser parser) {
        this.shell = shell;
        this.catalog = catalog;
        this.parser = parser;
    }

    @Override public void complete(LineReader reader, ParsedLine line, List<Candidate> out) {
        ReplParser.ReplLine l = line instanceof ReplParser.ReplLine r ? r : parser.split(line.line(), line.cursor());
        if (l.wordIndex() == 0) {
            first(l.word().substring(0, l.wordCursor()), out);
            return;
        }
        String head = l.words().get(0).toLowerCase(Locale.ROOT);
        if (StatementKind.startsQuery(head, shell.engine().entities())) query(l, out);
        else command(reader, head, l, out);
    }

    private void first(String prefix, List<Candidate> out) {
        for (String e : shell.engine().entities())
            add(out, e, "entities", catalog.get().doc(e), true);
        for (Command c : shell.commands().all()) add(out, c.name(), "commands", c.brief(), true);
    }

    // ---- queries ----

    private void query(ReplParser.ReplLine l, List<Candidate> out) {
        query(ReplParser.statement(l.line()), l.cursor(), l.wordStart(), out);
    }

    /** Candidates for a query {@code text} (perhaps the tail of a command line) with the cursor and word start in it. */
    private void query(String text, int cursor, int wordStart, List<Candidate> out) {
        Completion.Context ctx = Completion.at(text, cursor, catalog.get());
        String lead = ctx.replaceStart() > wordStart ? text.substring(wordStart, ctx.replaceStart()) : "";
        String entity = ctx.entity();
        if (ctx.expected().contains(Completion.Kind.VALUE) && entity != null && valuesOnly(text, ctx, entity, lead, out)) return;
        for (String w : ctx.candidates()) {
            FieldInfo f = entity == null ? null : catalog.get().field(entity, w);
            String group = f != null ? "fields" : w.endsWith("(") ? "functions" : "keywords";
            add(out, lead + w, group, f == null ? null : f.doc(), !w.endsWith("("));
        }
        HloModule m = shell.modules().currentOnceRead();   // Tab waits for a module read behind the prompt
        if (m == null) return;
        String prefix = ctx.prefix();
        if (ctx.expected().contains(Completion.Kind.PEAK)) {
            // peak(N): the rows of 'peaks' (default options), each with its step and bytes
            List<Reports.Ranked> peaks = Reports.rankedPeaks(m);
            for (int i = 0; i < peaks.size(); i++) {
                Reports.Ranked p = peaks.get(i);
                add(out, lead + (i + 1), "peaks", "step " + p.step() + ", " + Units.human(p.bytes()), false);
            }
        }
        if (ctx.expected().contains(Completion.Kind.INSTRUCTION)) {
            List<String> names = new ArrayList<>();
            for (String name : m.sequence()) if (name.startsWith(prefix)) names.add(name);
            addCapped(out, lead, names, "instructions");
        }
        if (ctx.expected().contains(Completion.Kind.VALUE) && entity != null) {
            String field = fieldBefore(text.substring(0, ctx.replaceStart()), entity);
            FieldInfo f = field == null ? null : catalog.get().field(entity, field);
            if (f != null && f.type() == ColumnType.STRING) {
                List<String> values = new ArrayList<>();
                for (String v : distinct(m, entity, field)) {
                    String quoted = quote(v);
                    if (quoted.startsWith(prefix) || v.startsWith(prefix)) values.add(quoted);
                }
                addCapped(out, lead, values, field);
            }
        }
    }

    /**
     * After {@code FIELD =} (or {@code in (}) of a text field, with nothing or a quote typed: only
     * the field's values in the current module (the category names after {@code category =}), not
     * every field and keyword an operand may also be. False, adding nothing, when there are none to offer.
     */
    private boolean valuesOnly(String text, Completion.Context ctx, String entity, String lead, List<Candidate> out) {
        String prefix = ctx.prefix();
        if (!prefix.isEmpty() && !prefix.startsWith("\"") && !prefix.startsWith("'")) return false;
        String field = fieldBefore(text.substring(0, ctx.replaceStart()), entity);
        FieldInfo f = field == null ? null : catalog.get().field(entity, field);
        HloModule m = f == null || f.type() != ColumnType.STRING ? null : shell.modules().currentOnceRead();
        if (m == null) return false;
        List<String> values = new ArrayList<>();
        for (String v : distinct(m, entity, field)) {
            String quoted = quote(v);
            if (quoted.startsWith(prefix) || v.startsWith(prefix.substring(Math.min(1, prefix.length())))) values.add(quoted);
        }
        if (values.isEmpty()) return false;
        addCapped(out, lead, values, field);
        return true;
    }

    /** The field a value is being compared with: the last field name before the operator or list. */
    private String fieldBefore(String text, String entity) {
        List<Token> ts = Lexer.lex(text);
        for (int i = ts.size() - 1; i > 0; i--) {
            Token t = ts.get(i);
            if (t.kind() == TokenKind.IDENT && catalog.get().field(entity, t.text()) != null) return t.text();
            if (t.kind() == TokenKind.KEYWORD && !t.isKeyword("in") && !t.isKeyword("not")) return null;
        }
        return null;
    }

    /** The distinct values of a string field in a module, asked of the query engine itself. */
    private List<String> distinct(HloModule m, String entity, String field) {
        String key = System.identityHashCode(m) + "\0" + entity + "\0" + field;
        return distinctCache.computeIfAbsent(key, k -> {
            List<String> vals = new ArrayList<>();
            try {
                Table t = Query.compile(entity + " group by " + field + " show " + field, catalog.get())
                        .run(new EvalContext(m, shell.settings().tiling()));
                for (List<Object> row : t.rows()) if (row.get(0) instanceof String s) vals.add(s);
            } catch (QueryException e) {
                // not groupable, or cancelled: no value candidates
            }
            return vals;
        });
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    // ---- commands ----

    private void command(LineReader reader, String name, ParsedLine l, List<Candidate> out) {
        int arg = l.wordIndex();
        switch (name) {
            case "set" -> {
                if (arg == 1) {
                    for (Setting s : Setting.values()) add(out, s.key(), "settings", s.doc(), true);
                    add(out, "format", "settings", "how results print (as the format command)", true);
                    add(out, "category", "settings", "a category rule: set category NAME = CONDITION", true);
                } else if (arg == 2 && l.words().get(1).equals("format")) {
                    for (String f : Formatters.names()) add(out, f, "formats", null, true);
                } else if (arg == 2) {
                    Setting s = Setting.byKey(l.words().get(1));
                    if (s == Setting.TILING) tilings(out);
                    else if (s != null) s.suggestions().forEach((v, what) -> add(out, v, s.key(), what, true));
                }
            }
            case "fit" -> fit(l, out);
            default -> {
                Command c = shell.commands().byName(name);
                if (c == null) return;
                if (c.grammar().parts() != null) {
                    parts(c.grammar().parts(), l, out);
                    return;
                }
                GrammarCompleter.Next next = GrammarCompleter.after(c.grammar(), l.words().subList(1, arg));
                for (String w : next.words()) add(out, w, name, null, true);
                if (next.want() == null) return;
                switch (next.want()) {
                    case FILE, FILE_REST -> files.complete(reader, l, out);
                    case MODULE -> addModules(out);
                    case STEP -> steps(out);
                    case TILING -> tilings(out);
                    case VALUE -> why(l, out);
                    case ENTITY -> { for (String e : shell.engine().entities()) add(out, e, "entities", null, true); }
                    case TOPIC -> {
                        for (String t : HELP_TOPICS) add(out, t, "topics", null, true);
                        for (String n : shell.commands().names()) add(out, n, "commands", null, true);
                    }
                    default -> { }
                }
            }
        }
    }

    /** The current module's scheduled instruction names, for a step. */
    private void steps(List<Candidate> out) {
        HloModule m = shell.modules().currentOnceRead();   // Tab waits for a module read behind the prompt
        if (m != null) addCapped(out, "", new ArrayList<>(m.sequence()), "instructions");
    }

    private void tilings(List<Candidate> out) {
        for (String t : shell.settings().tilingNames()) add(out, t, "tiling", null, true);
    }

    /**
     * {@code why VALUE}: the module's value names and labels ({@code fusion.3}, {@code fusion.3{1}}),
     * ids when digits are typed, {@code values}; after {@code why values}, what a query takes there.
     */
    private void why(ParsedLine l, List<Candidate> out) {
        HloModule m = shell.modules().currentOnceRead();   // Tab waits for a module read behind the prompt
        if (m == null) return;
        if (l.wordIndex() >= 2 && l.words().get(1).equalsIgnoreCase("values")) {
            String line = ReplParser.statement(l.line());
            int from = line.toLowerCase(Locale.ROOT).indexOf("values");
            int wordStart = l instanceof ReplParser.ReplLine r ? r.wordStart() : l.cursor() - l.wordCursor();
            query(line.substring(from), l.cursor() - from, Math.max(0, wordStart - from), out);
            return;
        }
        if (l.wordIndex() != 1) return;
        String prefix = l.word().substring(0, l.wordCursor());
        if ("values".startsWith(prefix)) add(out, "values", "entities", "why values where ...: the values a query selects", true);
        Set<String> names = new LinkedHashSet<>();
        boolean digits = !prefix.isEmpty() && prefix.chars().allMatch(Character::isDigit);
        for (HloValue v : m.values()) {
            if (digits) {
                String id = Long.toString(v.id());
                if (id.startsWith(prefix)) names.add(id);
                continue;
            }
            if (v.name().startsWith(prefix)) names.add(v.name());
            if (v.label().startsWith(prefix)) names.add(v.label());
        }
        addCapped(out, "", new ArrayList<>(names), "values");
    }

    /** What a keep or drop SPEC of {@code fit} may be besides a program and its arrays. */
    static final List<String> FIT_SPECS = List.of("all", "none", "parameters", "outputs");

    /**
     * {@code fit [PROGRAM, ... | where COND] [keep SPEC, ...] [drop SPEC, ...]}: the programs (module
     * handles), {@code where}, {@code keep} and {@code drop}; after {@code keep} or {@code drop}, the
     * SPECs: all, none, parameters, outputs, each program, {@code PROGRAM:parameters},
     * {@code PROGRAM:outputs} and the arrays a program keeps ({@code PROGRAM:N}, of modules read already).
     */
    private void fit(ParsedLine l, List<Candidate> out) {
        List<String> typed = l.words().subList(1, l.wordIndex());
        String section = null;
        for (String w : typed) if (w.equals("keep") || w.equals("drop")) section = w;
        for (String w : List.of("keep", "drop")) if (!typed.contains(w)) add(out, w, "fit", w + " SPEC, ...: arrays held between programs", true);
        if (section == null) {
            if (typed.contains("where")) return;   // a condition on modules: free text
            if (typed.isEmpty()) add(out, "where", "fit", "where COND: the modules a condition selects", true);
            addModules(out);
            return;
        }
        for (String spec : FIT_SPECS) add(out, spec, "arrays", null, true);
        List<ModuleSet.Entry> entries = new ArrayList<>(shell.modules().set().entries());
        entries.sort(Comparator.comparing(ModuleSet.Entry::handle, NaturalOrder.INSTANCE));
        for (ModuleSet.Entry e : entries) {
            add(out, e.handle(), "programs", e.name(), true);
            add(out, e.handle() + ":parameters", "programs", null, true);
            add(out, e.handle() + ":outputs", "programs", null, true);
            if (e.loaded() == null) continue;   // not read yet: Tab does not read a module for its arrays
            for (Fitting.Array a : Fitting.arrays(e.loaded()))
                add(out, a.name(), "arrays", a.role() + (a.shape() == null ? "" : " " + a.shape()) + ", " + Units.human(a.bytes()), true);
        }
    }

    /**
     * The rest of a line in {@code ;}-separated parts, each led by one of {@code each}'s forms
     * ({@code whatif EDIT [; EDIT ...] [; QUERY]}): the forms' names at the start of each part (and
     * entities after a ';', for the query), then what the form takes, as its grammar says; a condition
     * completes as a query on its entity, a query part as a query.
     */
    private void parts(ArgGrammar each, ParsedLine l, List<Candidate> out) {
        String line = ReplParser.statement(l.line());
        int cursor = Math.min(l.cursor(), line.length());
        int wordStart = l instanceof ReplParser.ReplLine r ? r.wordStart() : cursor - l.wordCursor();
        String before = line.substring(0, cursor);
        int semi = before.lastIndexOf(';');
        int part = semi >= 0 ? semi + 1 : before.indexOf(l.words().get(0)) + l.words().get(0).length();
        while (part < cursor && Character.isWhitespace(line.charAt(part))) part++;
        int verbEnd = part;
        while (verbEnd < cursor && !Character.isWhitespace(line.charAt(verbEnd))) verbEnd++;
        List<ArgGrammar> forms = each.forms().isEmpty() ? List.of(each) : each.forms();
        if (verbEnd == cursor) {  // the part's first word
            for (ArgGrammar f : forms) add(out, f.command(), "edits", f.synopsis(), true);
            if (semi >= 0) for (String e : shell.engine().entities()) add(out, e, "entities", catalog.get().doc(e), true);
            return;
        }
        String verb = line.substring(part, verbEnd).toLowerCase(Locale.ROOT);
        int next = line.indexOf(';', cursor);
        int partEnd = next < 0 ? line.length() : next;
        if (shell.engine().entities().contains(verb)) {
            query(line.substring(part, partEnd), cursor - part, Math.max(0, wordStart - part), out);
            return;
        }
        ArgGrammar form = null;
        for (ArgGrammar f : forms) if (f.command().equals(verb)) form = f;
        if (form == null) return;
        List<String> typed = List.of(line.substring(verbEnd, wordStart).trim().split("\\s+"));
        GrammarCompleter.Next n = GrammarCompleter.afterPart(form, typed.get(0).isEmpty() ? List.of() : typed);
        for (String w : n.words()) add(out, w, "keywords", null, true);
        if (n.want() == ArgKind.TILING) tilings(out);
        else if (n.want() == ArgKind.STEP) steps(out);
        else if (n.want() == ArgKind.CONDITION && n.value().entity() != null) {
            // the condition is a query on its entity: complete "ENTITY where ..." as typed after the keyword
            int kw = wordAfter(line, n.value().word(), verbEnd, wordStart);
            if (kw < 0) return;
            String q = n.value().entity() + " where" + line.substring(kw, partEnd);
            int shift = kw - (n.value().entity() + " where").length();
            query(q, cursor - shift, Math.max(0, wordStart - shift), out);
        }
    }

    /** Where the first whole word {@code word} typed in {@code [from, to)} of {@code line} ends; -1 when none. */
    private static int wordAfter(String line, String word, int from, int to) {
        Matcher m = Pattern.compile("(?<!\\S)" + Pattern.quote(word) + "(?!\\S)", Pattern.CASE_INSENSITIVE).matcher(line.substring(0, to));
        return m.find(from) ? m.end() : -1;
    }

    /**
     * Adds the first {@link #MAX_NAMES} of {@code matching} in natural order ({@code fusion.2} before
     * {@code fusion.10}). When more match, one more candidate, listed last, holds what all of them
     * start with: Tab inserts the prefix common to its candidates, and that must be the whole
     * list's, never one computed from the cut list (all params_* and peak gave "p" while other
     * names existed).
     */
    static void addCapped(List<Candidate> out, String lead, List<String> matching, String group) {
        List<String> names = new ArrayList<>(matching);
        names.sort(NaturalOrder.INSTANCE);
        for (int i = 0; i < Math.min(names.size(), MAX_NAMES); i++) addRanked(out, lead + names.get(i), group, null, i + 1);
        if (matching.size() <= MAX_NAMES) return;
        String common = matching.get(0);
        for (String s : matching) {
            int k = 0;
            while (k < common.length() && k < s.length() && common.charAt(k) == s.charAt(k)) k++;
            common = common.substring(0, k);
        }
        int more = matching.size() - MAX_NAMES;
        out.add(new Candidate(lead + common, "… " + more + " more (type more letters)", group, null, null, null, false,
                Integer.MAX_VALUE));
    }

    /** Module handles in natural order, each described by its program name. */
    private void addModules(List<Candidate> out) {
        List<ModuleSet.Entry> entries = new ArrayList<>(shell.modules().set().entries());
        entries.sort(Comparator.comparing(ModuleSet.Entry::handle, NaturalOrder.INSTANCE));
        for (int i = 0; i < entries.size(); i++) addRanked(out, entries.get(i).handle(), "modules", entries.get(i).name(), i + 1);
    }

    /**
     * A candidate listed at {@code rank}: JLine sorts candidates by rank, then by plain string order,
     * so names ranked in natural order keep it on the screen.
     */
    private static void addRanked(List<Candidate> out, String value, String group, String descr, int rank) {
        out.add(new Candidate(value, value, group, descr == null || descr.isEmpty() ? null : descr, null, null, true, rank));
    }

    private static void add(List<Candidate> out, String value, String group, String descr, boolean complete) {
        out.add(new Candidate(value, value, group, descr == null || descr.isEmpty() ? null : descr, null, null, complete));
    }

    /** Candidate values, deduplicated in order; for tests. */
    static List<String> values(List<Candidate> cs) {
        Set<String> s = new LinkedHashSet<>();
        for (Candidate c : cs) s.add(c.value());
        return new ArrayList<>(s);
    }
}
