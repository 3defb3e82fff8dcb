package bufq.shell.statement;

import bufq.shell.session.CommandException;
import java.util.ArrayList;
import java.util.List;

/** Splits a command line into words: whitespace separates, double quotes group ({@code "my dump.txt"}). */
public final class Words {
    private Words() {}

    public static List<String> split(String line) throws CommandException {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (ch == '"') {
                inWord = true;
                int j = i + 1;
                for (; j < line.length() && line.charAt(j) != '"'; j++) {
                    char c = line.charAt(j);
                    if (c == '\\' && j + 1 < line.length() && (line.charAt(j + 1) == '"' || line.charAt(j + 1) == '\\')) c = line.charAt(++j);
                    w.append(c);
                }
                if (j >= line.length()) throw new Unterminated(i + 1);
                i = j;
            } else if (Character.isWhitespace(ch)) {
                if (inWord) out.add(w.toString());
                w.setLength(0);
                inWord = false;
            } else {
                w.append(ch);
                inWord = true;
            }
        }
        if (inWord) out.add(w.toString());
        return out;
    }

    /** A quote not closed; {@code column} counts from 1 in the text split. */
    public static final class Unterminated extends CommandException {
        private final int column;

        Unterminated(int column) {
            super("unterminated string starting at column " + column);
            this.column = column;
        }

        /** The same error for text that starts {@code by} characters into the statement. */
        public Unterminated shifted(int by) { return new Unterminated(column + by); }
    }
}
