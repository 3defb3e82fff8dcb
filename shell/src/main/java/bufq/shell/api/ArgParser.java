package bufq.shell.api;

import bufq.lang.NearNames;
import bufq.shell.api.ParsedArgs.Word;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** One parse of a command's arguments by one form of its {@link ArgGrammar}: the words, then each argument. */
final class ArgParser {
    private final String command;
    private final List<Arg> args;
    private final String synopsis;
    private final String text;
    private final List<Word> words;
    private final Map<String, List<Word>> values = new LinkedHashMap<>();
    private final int[] unterminated = {-1};
    private int at;

    private final List<String> reserved;

    /** The arguments {@code text} of {@code command}, by one form's {@code args}; errors quote its {@code synopsis}. */
    ArgParser(String command, List<Arg> args, String synopsis, String text, List<String> reserved) {
        this.command = command;
        this.args = args;
        this.synopsis = synopsis;
        this.reserved = reserved;
        this.text = text;
        this.words = ArgText.words(text, unterminated);
    }

    // arguments := ( keyword value? | positional )* ; keywords in any order, positionals in theirs
    ParsedArgs parse() throws ArgumentError {
        List<Arg> positionals = new ArrayList<>();
        for (Arg a : args) if (a.positional()) positionals.add(a);
        int next = 0;
        boolean keywordSeen = false;
        while (at < words.size()) {
            Word w = words.get(at);
            Arg k = keyword(w.text());
            // the rest of the line is taken as typed, quotes and all; any other word must close its quote
            boolean rest = k == null && next < positionals.size() && positionals.get(next).kind().rest;
            if (w.start() == unterminated[0] && !rest) throw ArgText.error(w.start(), text.length(), "unterminated string");
            if (k != null) {
                keywordSeen = true;
                keywordArgument(k, w);
                continue;
            }
            if (next >= positionals.size() || unknownFlag(w.text())) throw unexpected(w);
            Arg p = positionals.get(next);
            // a lone optional word leads (forecast [DIM] at N): after a keyword it is out of place
            // (forecast fit: a keyword of another form is that form's, not this word)
            if (leading(p) && (keywordSeen || reserved.contains(w.text().toLowerCase(Locale.ROOT)))) {
                next++;
                if (next >= positionals.size()) throw unexpected(w);
                p = positionals.get(next);
            }
            if (p.kind().rest) {
                put(p, new Word(text.substring(w.start()), w.start(), text.length()));
                at = words.size();
                break;
            }
            if (p.group() >= 0) conflicts(p, w);
            Word v = p.runOn() ? runOn(w.start()) : words.get(at++);
            check(p, v);
            put(p, v);
            if (!p.repeated()) next++;
        }
        missing();
        return new ParsedArgs(values);
    }

    private static boolean leading(Arg p) {
        return p.kind() == ArgKind.TEXT && !p.required() && !p.repeated() && !p.runOn();
    }

    // keyword := FLAG | word value | '--word=value'
    private void keywordArgument(Arg k, Word w) throws ArgumentError {
        at++;
        conflicts(k, w);
        if (k.kind() == ArgKind.FLAG) {
            put(k, w);
            return;
        }
        String typed = w.text();
        int eq = typed.indexOf('=');
        if (eq > 0 && typed.startsWith("--")) {   // --partition=run=1
            Word v = new Word(typed.substring(eq + 1), w.start() + eq + 1, w.end());
            check(k, v);
            put(k, v);
            return;
        }
        if (at >= words.size() || (k.runOn() && keyword(words.get(at).text()) != null))
            throw ArgText.error(text.length(), text.length() + 1, "'" + k.word() + "' needs a value; usage: " + synopsis);
        Word v = k.runOn() ? runOn(words.get(at).start()) : words.get(at++);
        check(k, v);
        put(k, v);
    }

    /** The words from here to the next keyword, as one value as typed. */
    private Word runOn(int start) {
        int end = start;
        while (at < words.size() && keyword(words.get(at).text()) == null) end = words.get(at++).end();
        return new Word(text.substring(start, end), start, end);
    }

    private void conflicts(Arg k, Word w) throws ArgumentError {
        if (values.containsKey(k.word()) && !k.repeated())
            throw ArgText.error(w.start(), w.end(), "'" + k.word() + "' given twice; usage: " + synopsis);
        Arg other = Arg.rival(args, k, values::containsKey);
        if (other != null) throw ArgText.error(w.start(), w.end(), "give " + other.named() + " or " + k.named() + ", not both");
    }

    /** Required arguments and groups not given: an error at the end, or at a word that looks like the one missing. */
    private void missing() throws ArgumentError {
        List<Integer> groupsSeen = new ArrayList<>();
        for (Arg a : args) {
            if (!a.required() || values.containsKey(a.word())) continue;
            List<Arg> wanted = new ArrayList<>();
            if (a.group() >= 0) {
                if (groupsSeen.contains(a.group())) continue;
                groupsSeen.add(a.group());
                boolean given = false;
                for (Arg m : args) {
                    if (m.group() != a.group()) continue;
                    wanted.add(m);
                    given |= values.containsKey(m.word());
                }
                if (given) continue;
            } else {
                wanted.add(a);
            }
            List<String> names = new ArrayList<>(), keywords = new ArrayList<>();
            for (Arg m : wanted) {
                names.add(m.named());
                if (!m.positional()) keywords.add(m.word());
            }
            String message = "expected " + String.join(" or ", names) + "; usage: " + synopsis;
            // a keyword mistyped where a free word is taken ('forecast fti'): the caret goes under it
            for (List<Word> given : values.values()) {
                for (Word w : given) {
                    List<String> near = NearNames.near(w.text(), keywords);
                    if (!near.isEmpty() && !w.text().contains(" "))
                        throw ArgText.error(w.start(), w.end(), message, near);
                }
            }
            throw ArgText.error(text.length(), text.length() + 1, message);
        }
    }

    private ArgumentError unexpected(Word w) {
        List<String> keywords = new ArrayList<>();
        for (Arg k : args) if (!k.positional() && !values.containsKey(k.word())) keywords.add(k.word());
        return ArgText.error(w.start(), w.end(), "unexpected '" + w.text() + "'; usage: " + synopsis, NearNames.near(w.text(), keywords));
    }

    /** A {@code --word} not declared, where the grammar has flags of that form: a mistyped flag, not a value. */
    private boolean unknownFlag(String word) {
        if (!word.matches("--[A-Za-z][A-Za-z-]*(=.*)?")) return false;
        for (Arg a : args) if (!a.positional() && a.word().startsWith("--")) return true;
        return false;
    }

    private Arg keyword(String word) { return Arg.keyword(args, word); }

    private void put(Arg a, Word v) { values.computeIfAbsent(a.word(), x -> new ArrayList<>()).add(v); }

    private void check(Arg a, Word v) throws ArgumentError {
        if (v.start() == unterminated[0]) throw ArgText.error(v.start(), text.length(), "unterminated string");
        switch (a.kind()) {
            case CHOICE -> {
                String lower = v.text().toLowerCase(Locale.ROOT);
                if (a.choices().contains(lower) || a.unlisted().contains(lower) || a.aliases().contains(lower)) return;
                List<String> quoted = new ArrayList<>(a.choices());
                quoted.addAll(a.unlisted());
                String list = quoted.size() == 1 ? quoted.get(0)
                        : String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.get(quoted.size() - 1);
                String who = a.positional() ? command : command + " " + a.word();
                throw ArgText.error(v.start(), v.end(), who + " takes " + list + ", not '" + v.text() + "'", NearNames.near(v.text(), quoted));
            }
            case COUNT -> {
                Long n = ParsedArgs.whole(v.text());
                if (n != null && n >= a.min() && n <= a.max()) return;
                String range = a.max() >= Integer.MAX_VALUE ? ">= " + a.min() : "from " + a.min() + " to " + a.max();
                String who = a.positional() ? a.placeholder() : "'" + a.word() + "'";
                throw ArgText.error(v.start(), v.end(), who + " takes a whole number " + range + ", not '" + v.text() + "'");
            }
            case SHARE -> {
                if (ParsedArgs.share(v.text()) >= 0) return;
                throw ArgText.error(v.start(), v.end(), a.word() + " takes a percentage from 0% to 100% (20%) or a fraction from 0 to 1 (0.2), not '"
                        + v.text() + "'");
            }
            default -> { }   // steps, spaces and modules resolve against the session when the command runs
        }
    }
}
