package bufq.shell.session;

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
                if (j >= line.length()) throw new CommandException("unterminated string starting at column " + (i + 1));
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
}
