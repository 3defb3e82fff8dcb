package bufq.analysis.oom;

import bufq.units.PrintedSize;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One out-of-memory message as read from pasted text: what it says, nothing inferred.
 *
 * @param family          which printer wrote it
 * @param line            1-based line of its headline in the paste
 * @param endLine         1-based last line read as part of it
 * @param headline        the headline, log prefix removed
 * @param requested       the size it failed to allocate (or reserve), or null
 * @param capacity        what the device or memory space holds ({@code of Y hbm}, BFC {@code Limit:},
 *                        {@code memory (size=C)}), or null
 * @param used            what was in use ({@code Used X}, BFC {@code InUse:}), or null
 * @param free            what was free ({@code There are Y free}), or null
 * @param exceeded        by how much ({@code Exceeded hbm capacity by Z}), or null
 * @param program         the program it names ({@code Error loading program 'NAME'}, a chunk's
 *                        {@code executable=NAME}), or null
 * @param device          the allocator or device ({@code GPU_0_bfc}, {@code device ordinal 0}, {@code hbm}), or null
 * @param memorySpace     {@code hbm}, {@code vmem}, ... where printed, or null
 * @param allocationIndex the allocation it names ({@code #allocationK}, {@code allocation_index=K}), or -1
 * @param figures         the totals it prints, by its own words in print order ({@code parameter allocation},
 *                        {@code HLO temp}, {@code arguments}, {@code output}, {@code program}, {@code Limit}, ...)
 * @param buffers         the buffers it lists, in print order
 * @param programTotals   bytes of in-use chunks per {@code executable=NAME} (BFC with annotations)
 * @param warnings        what was skipped or cut off inside it
 * @param repeats         lines where the same failure is printed again (glog's line and the exception's,
 *                        a BFC line and XLA's error for the same allocation), in order; the first 1,000
 * @param times           how many times it is printed in all (1 when once)
 */
public record OomMessage(Family family, int line, int endLine, String headline, PrintedSize requested,
                         PrintedSize capacity, PrintedSize used, PrintedSize free, PrintedSize exceeded, String program,
                         String device, String memorySpace, int allocationIndex, Map<String, PrintedSize> figures,
                         List<ListedBuffer> buffers, Map<String, Long> programTotals, List<OomWarning> warnings,
                         List<Integer> repeats, int times) {
    public OomMessage {
        figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
        programTotals = Collections.unmodifiableMap(new LinkedHashMap<>(programTotals));
        buffers = List.copyOf(buffers);
        warnings = List.copyOf(warnings);
        repeats = List.copyOf(repeats);
    }

    /**
     * The capacity when it is the device's (HBM, a GPU allocator's limit, the host's), or null: a vmem
     * or smem message's capacity (16 MiB, 1 MiB) is that memory's, never what 'fit' checks against.
     */
    public PrintedSize deviceCapacity() {
        return memorySpace == null || memorySpace.equals("hbm") ? capacity : null;
    }

    /** This message with the exact size another copy of it prints. */
    OomMessage withRequest(PrintedSize exact) {
        return new OomMessage(family, line, endLine, headline, exact, capacity, used, free, exceeded, program, device,
                memorySpace, allocationIndex, figures, buffers, programTotals, warnings, repeats, times);
    }

    /** This message printed also at {@code lines} ({@link FailureSet} gathers them), with {@code more} warnings. */
    OomMessage withRepeats(List<Integer> lines, int times, List<OomWarning> more) {
        List<OomWarning> w = new ArrayList<>(warnings);
        w.addAll(more);
        return new OomMessage(family, line, endLine, headline, requested, capacity, used, free, exceeded, program, device,
                memorySpace, allocationIndex, figures, buffers, programTotals, w, lines, times);
    }

    /** This message's report standing for a bare copy printed first at {@code first}. */
    OomMessage firstPrintedAt(int first) {
        return new OomMessage(family, first, endLine, headline, requested, capacity, used, free, exceeded, program, device,
                memorySpace, allocationIndex, figures, buffers, programTotals, warnings, repeats, times);
    }
}
