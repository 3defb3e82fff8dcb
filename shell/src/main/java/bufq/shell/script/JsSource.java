package bufq.shell.script;

import bufq.shell.statement.UnfinishedCode;
import bufq.shell.api.ScriptEngine;

import java.util.ArrayDeque;

/**
 * Tells whether a piece of JavaScript typed at the prompt is visibly unfinished, so the REPL and the
 * script reader ask for more lines. Pure Java: deciding this must not start the JavaScript engine.
 * It scans strings, template literals, comments and brackets; a regex literal is recognised only
 * after an operator or an opening bracket (enough for a prompt, not a full lexer).
 *
 * <p>The scan is a state machine over characters ({@link Scan}), so code that arrives a line at a
 * time is read once in all: a {@code js} statement of 100,000 lines in a script is linear, where
 * scanning it whole again on every line was quadratic.
 */
public final class JsSource {
    private JsSource() {}

    /** True when {@code code} has an open bracket, string, template or block comment, or ends in {@code \}. */
    public static boolean incomplete(String code) {
        Scan s = new Scan();
        s.add(code);
        return s.incomplete();
    }

    /** Where a scan stands between two pieces of code. */
    private enum Mode { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, TEMPLATE, REGEX }

    /** Characters after which a {@code /} starts a regular expression, not a division. */
    private static final String BEFORE_REGEX = "(,=:[!&|?{};+-*%<>~^";

    /** Code read piece by piece; {@link #incomplete} answers for all of it so far. Each character is read once. */
    public static final class Scan implements UnfinishedCode {
        private Mode mode = Mode.CODE;
        private int depth;
        private char prev = '(';               // the last significant character in code ('a' for a word or literal)
        private char quote;                    // of the open string
        private boolean escape, star, dollar, regexClass, slash;
        private char beforeSlash;
        private boolean broken;                // a string ended by a line break: an error, not more input
        private char lastNonBlank;
        private final ArrayDeque<Integer> templates = new ArrayDeque<>();   // depths at which a ${ resumes its template

        @Override public void add(CharSequence code) {
            for (int i = 0; i < code.length(); i++) {
                char c = code.charAt(i);
                if (!Character.isWhitespace(c)) lastNonBlank = c;
                step(c);
            }
        }

        private void step(char c) {
            switch (mode) {
                case CODE -> code(c);
                case LINE_COMMENT -> { if (c == '\n') mode = Mode.CODE; }
                case BLOCK_COMMENT -> {
                    if (star && c == '/') mode = Mode.CODE;
                    star = c == '*';
                }
                case STRING -> {
                    if (escape) escape = false;
                    else if (c == '\\') escape = true;
                    else if (c == quote) end();
                    else if (c == '\n') {
                        broken = true;
                        end();
                    }
                }
                case TEMPLATE -> template(c);
                case REGEX -> {
                    if (escape) escape = false;
                    else if (c == '\\') escape = true;
                    else if (c == '\n') end();
                    else if (c == '[') regexClass = true;
                    else if (c == ']') regexClass = false;
                    else if (c == '/' && !regexClass) end();
                }
            }
        }

        /** A string, template or regex ends: a literal, as a word is. */
        private void end() {
            mode = Mode.CODE;
            prev = 'a';
        }

        private void code(char c) {
            if (slash) {
                slash = false;
                if (c == '/') { mode = Mode.LINE_COMMENT; return; }
                if (c == '*') { mode = Mode.BLOCK_COMMENT; star = false; return; }
                if (BEFORE_REGEX.indexOf(beforeSlash) >= 0) {
                    mode = Mode.REGEX;
                    escape = regexClass = false;
                    step(c);
                    return;
                }
                prev = '/';
            }
            if (c == '/') {
                slash = true;
                beforeSlash = prev;
            } else if (c == '\'' || c == '"') {
                mode = Mode.STRING;
                quote = c;
                escape = false;
            } else if (c == '`') {
                mode = Mode.TEMPLATE;
                escape = dollar = false;
            } else if (c == '}' && !templates.isEmpty() && templates.peek() == depth) {
                templates.pop();
                mode = Mode.TEMPLATE;
                escape = dollar = false;
            } else {
                if (c == '(' || c == '[' || c == '{') depth++;
                else if (c == ')' || c == ']' || c == '}') depth--;
                if (!Character.isWhitespace(c)) prev = Character.isLetterOrDigit(c) || c == '_' || c == '$' ? 'a' : c;
            }
        }

        private void template(char c) {
            if (escape) { escape = false; return; }
            if (dollar) {
                dollar = false;
                if (c == '{') {
                    templates.push(depth);
                    mode = Mode.CODE;
                    prev = '(';
                    return;
                }
            }
            if (c == '\\') escape = true;
            else if (c == '`') end();
            else if (c == '$') dollar = true;
        }

        @Override public boolean incomplete() {
            if (broken) return false;
            if (mode == Mode.STRING || mode == Mode.TEMPLATE || mode == Mode.BLOCK_COMMENT) return true;
            if (depth > 0 || !templates.isEmpty()) return true;
            return lastNonBlank == '\\';
        }
    }
}
