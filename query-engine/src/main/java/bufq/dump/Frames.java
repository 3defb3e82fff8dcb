package bufq.dump;

import bufq.dump.file.DumpFile;
import bufq.dump.file.LoadException;
import bufq.dump.text.Lines;

import java.util.ArrayList;
import java.util.List;

/** Splits stdout-framed text ({@code *** Begin <file> ***} ... {@code *** End <file> ***}) into files. */
final class Frames {
    private Frames() {}

    static final String BEGIN = "*** Begin ";
    static final String END = "*** End ";

    static boolean isFramed(String text) {
        return text.startsWith(BEGIN) || text.contains("\n" + BEGIN);
    }

    /** The frames as in-memory files named by their headers; an unclosed last frame runs to the end. */
    static List<DumpFile> split(String source, String text) throws LoadException {
        List<DumpFile> out = new ArrayList<>();
        Lines ls = new Lines(text, 0, text.length(), 1);
        String name = null;
        int bodyStart = 0;
        long headerLine = 0;
        while (ls.next()) {
            if (ls.startsWith(BEGIN)) {
                String line = ls.line();
                if (!line.endsWith(" ***") || line.length() < BEGIN.length() + 4) {
                    throw new LoadException(source, ls.number(), "expected '*** Begin <file> ***'");
                }
                if (name != null) out.add(DumpFile.frame(source, name, text.substring(bodyStart, ls.start()), headerLine + 1));
                name = line.substring(BEGIN.length(), line.length() - 4).trim();
                int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
                if (slash >= 0) name = name.substring(slash + 1);
                bodyStart = ls.atEnd() ? text.length() : Math.min(text.length(), ls.end() + 1);
                headerLine = ls.number();
            } else if (ls.startsWith(END) && name != null) {
                out.add(DumpFile.frame(source, name, text.substring(bodyStart, ls.start()), headerLine + 1));
                name = null;
            }
        }
        if (name != null) out.add(DumpFile.frame(source, name, text.substring(bodyStart), headerLine + 1));
        if (out.isEmpty()) throw new LoadException(source, headerLine, "no '*** Begin <file> ***' frames");
        return out;
    }
}
