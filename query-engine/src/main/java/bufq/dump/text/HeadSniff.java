package bufq.dump.text;

import bufq.dump.file.FileKind;
import bufq.dump.file.LoadException;
import bufq.dump.text.ReportPart;

/**
 * The head-of-file verdict: does this text start like a buffer-assignment dump (or a section of
 * one, or a memory report)? Used by the directory walk's sniff ({@link DumpLoader}) and by a
 * file's open ({@link DumpFile}), so both refuse the same text with the same one-line reason.
 */
final class HeadSniff {
    private HeadSniff() {}

    /** Refuses text that is not a buffer-assignment dump, with a one-line reason. */
    static void checkLooksLikeDump(String name, String text) throws LoadException {
        checkLooksLikeDump(name, FileKind.OTHER, text);
    }

    /** As {@link #checkLooksLikeDump(String, String)}, saying what a file of {@code kind} should be. */
    static void checkLooksLikeDump(String name, FileKind kind, String text) throws LoadException {
        String noun = kind.noun();
        if (text.isEmpty()) throw new LoadException(name, "empty file, not a " + noun);
        if (text.isBlank()) throw new LoadException(name, "blank file, not a " + noun);
        // indexOf rather than a charAt loop: this runs on every file a directory's load opens
        int nul = (text.length() <= 8192 ? text : text.substring(0, 8192)).indexOf('\0');
        if (nul >= 0) {
            long line = 1;
            for (int j = 0; j < nul; j++) if (text.charAt(j) == '\n') line++;
            throw new LoadException(name, line, "binary file (a NUL character), not a " + noun);
        }
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) i++;
        if (ReportPart.looksLikeReport(text)) return;
        String[] starts = {"BufferAssignment:", "allocation ", "Total bytes used:", "Used values:", "HloLiveRange (max "};
        for (String s : starts) if (text.startsWith(s, i)) return;
        if (text.startsWith("HloModule ", i)) {
            throw new LoadException(name, 1, "HLO text, not a " + noun + " (expected '" + kind.header() + "')");
        }
        long line = 1;
        for (int k = 0; k < i; k++) if (text.charAt(k) == '\n') line++;
        int eol = text.indexOf('\n', i);
        String first = text.substring(i, eol < 0 ? text.length() : eol);
        if (first.length() > 40) first = first.substring(0, 37) + "...";
        throw new LoadException(name, line, "not a " + noun + " (expected '" + kind.header() + "', found '" + first + "')");
    }
}
