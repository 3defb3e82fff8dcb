package bufq.analysis.oom;

import bufq.units.PrintedSize;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A message being read: its headline, the block of lines that belongs to it, and the figures read so
 * far. {@link MessageParser} fills it family by family, {@link TpuReport} the TPU reports.
 */
abstract class Draft {
    final Family family;
    final int start;
    String headline;
    final LogLines lines;
    final List<String> block = new ArrayList<>();
    final List<Integer> blockLines = new ArrayList<>();
    final List<OomWarning> warnings = new ArrayList<>();
    final Map<String, PrintedSize> figures = new LinkedHashMap<>();
    final List<ListedBuffer> buffers = new ArrayList<>();
    PrintedSize requested, capacity, used, free, exceeded;
    String program, device, space;
    int allocationIndex = -1;
    boolean endOfText;
    /** Pasted without its headline (a TPU report's rows, a BFC {@code Stats:} tail): no request to expect. */
    final boolean headless;

    Draft(Family family, int start, String headline, LogLines lines, List<OomWarning> early) {
        this.family = family;
        this.start = start;
        this.headline = headline;
        this.lines = lines;
        this.headless = !Headlines.startsMessage(headline);
        warnings.addAll(early);
    }

    PrintedSize need(PrintedSize s, String expected) {
        // a figure refused as no byte count (FigureCheck) is said so already, not cut off
        boolean refused = warnings.stream().anyMatch(w -> w.line() == start && w.message().contains("figure not read"));
        if (s == null && !headless && !refused) warnings.add(new OomWarning(start, "message cut off: expected " + expected));
        return s;
    }

    void put(String name, PrintedSize s) { if (s != null) figures.put(name, s); }

    /** Moves to the next line, a line of this message, and checks its figures; returns it cleaned. */
    String consume() {
        String s = lines.next();
        FigureCheck.scan(lines.raw(), lines.number(), warnings);
        return s;
    }

}
