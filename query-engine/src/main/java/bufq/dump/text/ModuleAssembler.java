package bufq.dump.text;

import bufq.dump.file.DumpFile;
import bufq.dump.file.DumpNames;
import bufq.dump.file.FileKind;
import bufq.dump.file.ModuleSource;
import bufq.dump.text.AllocationLine;
import bufq.dump.text.AllocationPart;
import bufq.dump.text.Lines;
import bufq.dump.text.LiveRangePart;
import bufq.dump.text.NameTable;
import bufq.dump.text.RawValues;
import bufq.dump.text.RegionParse;
import bufq.dump.text.ReportPart;
import bufq.dump.text.ValuesPart;
import bufq.dump.text.Warnings;

import bufq.model.BufferAllocation;
import bufq.dump.file.LoadException;
import bufq.model.PartReadException;
import bufq.model.HloInstruction;
import bufq.model.HloModuleBuilder;
import bufq.model.HloPosition;
import bufq.util.IdTable;
import bufq.model.HloUse;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.model.Shape;
import bufq.model.UsedValues;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ForkJoinTask;
import java.util.stream.IntStream;

/**
 * Joins the parsed parts of one module: values get their BufferLiveRange (by name and canonical
 * index); the Used values section, parsed now or on first use, is joined apart by
 * {@link #usedValues}: values get their details (by id), instructions their time from the
 * InstructionSequence. Every join that fails is a warning naming the line.
 */
final class ModuleAssembler {
    private ModuleAssembler() {}

    /**
     * @param regions every region of the module, in file order; those of the Used values section may
     *                be unparsed (read on first use)
     * @param stamps  each file's size and time when it was opened, in the order of the source's files
     * @param w       warnings so far (files skipped), to which the join's are added
     */
    static HloModule assemble(ModuleSource source, List<Region> regions, List<UsedValuesReader.Stamp> stamps,
                              Warnings w, List<DumpFile> skippedFiles) throws LoadException {
        List<BufferAllocation> allocations = new ArrayList<>();
        List<RawValues> rawValues = new ArrayList<>();
        List<Region> valueRegions = new ArrayList<>();
        Long total = null;
        LiveRangePart live = null;
        Region liveRegion = null;
        ReportPart report = null;
        String truncatedAt = null;
        boolean allocationsSkipped = false;
        List<Region> allocationRegions = new ArrayList<>();

        for (Region r : regions) {
            if (r.kind == Region.Kind.VALUES) {
                // Joined apart, now or on first use, with its own warnings; a file that ends early says so now.
                valueRegions.add(r);
                long at = r.lastOfFile ? r.endsEarlyAt() : 0;
                if (at > 0) {
                    r.truncationReported = true;
                    if (truncatedAt == null) {
                        truncatedAt = r.file.origin() + ":" + at;
                        w.add(r.file.origin(), at, "file ends early (truncated?); loaded what it holds");
                    }
                }
                continue;
            }
            RegionParse p = r.part;
            for (RegionParse.Note n : p.notes()) w.add(r.file.origin(), r.firstLine() + n.line() - 1, n.message());
            for (int i = 0; i < p.dropped(); i++) w.add(r.file.origin(), 0, "(warning not kept)");
            if (p.truncatedAt() > 0 && truncatedAt == null) {
                long at = r.firstLine() + p.truncatedAt() - 1;
                truncatedAt = r.file.origin() + ":" + at;
                w.add(r.file.origin(), at, "file ends early (truncated?); loaded what it holds");
            }
            if (p instanceof AllocationPart a) {
                // A line skipped (a size past 2^56) is named where it is: its allocation is not a cut.
                allocationsSkipped |= !p.notes().isEmpty() || p.dropped() > 0;
                allocationRegions.add(r);
                allocations.addAll(a.allocations);
                rawValues.add(a.values);
                if (a.totalBytes != null && total == null) total = a.totalBytes;
            } else if (p instanceof LiveRangePart l) {
                if (live == null) { live = l; liveRegion = r; }
                else w.add(r.file.origin(), r.firstLine(), "second HloLiveRange section ignored");
            } else if (p instanceof ReportPart rp && report == null) {
                report = rp;
            }
        }

        // A file cut between two lines reads whole: where its last section stops short of what XLA writes, it was cut.
        if (truncatedAt == null) {
            Region.Cut cut = Region.sectionCut(regions, live != null);
            if (cut != null) {
                truncatedAt = cut.region().file.origin() + ":" + cut.line();
                w.add(cut.region().file.origin(), cut.line(), "file ends early (truncated?): " + cut.what() + "; loaded what it holds");
            }
        }

        // A module known only from its report: allocations with the report's (rounded) sizes.
        if (allocations.isEmpty() && report != null) {
            for (AllocationLine a : report.allocations.values()) allocations.add(a.toAllocation(true, List.of()));  // exact only where printed in plain bytes
            allocations.sort((x, y) -> Integer.compare(x.index(), y.index()));
        }
        if (total == null && report != null) total = report.total();
        // A buffer-assignment file cut between two allocations reads whole; the total stated beside it
        // (the values file's, the report's) says what it held.
        if (total != null && !allocationRegions.isEmpty() && truncatedAt == null && !allocationsSkipped) {
            long sum = 0;
            boolean exact = true;
            for (BufferAllocation a : allocations) {
                sum = Math.addExact(sum, a.size());
                exact &= a.sizeExact();
            }
            if (exact && sum < total) {
                Region last = allocationRegions.get(allocationRegions.size() - 1);
                long at = last.firstLine() + Math.max(0, last.lineCount() - 1);
                truncatedAt = last.file.origin() + ":" + at;
                w.add(last.file.origin(), at, "file ends early (truncated?): its allocations add up to " + sum
                        + " bytes, where the dump states Total bytes used: " + total + "; loaded what it holds");
            }
        }

        long t1 = System.nanoTime();
        List<String> sequence = live == null ? List.of() : live.sequence;
        UsedValuesReader reader = new UsedValuesReader(source, valueRegions, stamps, ModuleAssembler::usedValues);
        UsedValues.Handle details = new UsedValues.Handle(reader, instructionCount(live, rawValues));
        // Values joined with their live ranges, each made once; their details are the section's.
        // Each region's values are joined on whichever core is free (a million values: a second on one).
        int blocks = rawValues.size();
        int[] firstOf = new int[blocks + 1];
        for (int b = 0; b < blocks; b++) firstOf[b + 1] = firstOf[b] + rawValues.get(b).size;
        int valueCount = firstOf[blocks];
        HloValue[] joinedValues = new HloValue[valueCount];
        int[] joinedIn = new int[blocks];
        boolean[] tilesIn = new boolean[blocks];
        LiveRangePart ranges = live;
        IntStream.range(0, blocks).parallel().forEach(b -> {
            RawValues rv = rawValues.get(b);
            Shape lastShape = null;
            for (int k = 0; k < rv.size; k++) {
                String name = rv.name[k], index = rv.index[k];
                long range = ranges == null ? HloValue.NO_RANGE : ranges.rangeOf(name, rv.symbol[k], index);
                if (range != HloValue.NO_RANGE) joinedIn[b]++;
                Shape shape = rv.shape[k];
                if (!tilesIn[b] && shape != lastShape) { tilesIn[b] = hasTiles(shape); lastShape = shape; }   // shapes are shared
                int at = firstOf[b] + k;
                joinedValues[at] = HloValue.deferred(rv.id[k], name, index, rv.indexPrinted[k], rv.phi[k], rv.color[k], rv.bytes[k],
                        rv.offset[k], rv.allocation[k], shape, range, details, at);
            }
        });
        int joined = 0;
        boolean tiles = false;
        for (int b = 0; b < blocks; b++) { joined += joinedIn[b]; tiles |= tilesIn[b]; }
        List<HloValue> values = Arrays.asList(joinedValues);
        if (live != null && valueCount > 0 && joined != live.rangeCount()) {
            Set<String> unjoined = live.keys();
            for (HloValue v : values) unjoined.remove(v.key());
            String text = liveRegion.source.text(liveRegion.from, liveRegion.to);
            for (Map.Entry<Long, String> e : LiveRangePart.linesOf(unjoined, text).entrySet()) {
                w.add(liveRegion.file.origin(), liveRegion.firstLine() + e.getKey() - 1,
                        "live range of '" + e.getValue() + "' matches no value in the allocation section");
            }
        }

        long t2 = System.nanoTime();
        String stem = source.name();
        String fileName = source.dumpFiles().get(0).name();
        int slash = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
        String backend = DumpNames.backend(FileKind.prefix(fileName.substring(slash + 1)));
        if (backend == null) backend = tiles ? "tpu" : "unknown";

        // The files read: a skipped sibling (warned about) is not one of the module's files.
        List<String> files = source.dumpFiles().stream().filter(f -> !skippedFiles.contains(f)).map(DumpFile::name).toList();
        HloModule.Info info = new HloModule.Info(stem, stem, source.number(), backend, files,
                live == null ? -1 : live.maxTime, total, live == null ? null : live.peak,
                live == null ? -1 : live.stackBytes, live == null ? null : live.stack,
                report == null ? new TreeMap<>() : report.colorTotals, !valueRegions.isEmpty(), truncatedAt, HloModule.Info.TEXT,
                null, null, report == null ? null : report.spaceNames);
        HloModule m = new HloModuleBuilder(info).allocations(allocations).values(values).sequence(sequence)
                .warnings(w.kept(), w.count()).details(details).build();
        // The model rules shared ids out in one pass; only ids it finds shared have their lines looked for.
        List<List<HloValue>> shared = m.valuesSharingAnId();
        if (!shared.isEmpty()) {
            warnSharedIds(shared, allocationRegions, w);
            m = m.withWarnings(w.kept(), w.count());
        }
        // Parsed with the rest (or absent): joined now, as part of the load.
        if (reader.parsed()) {
            try {
                m.usedValues().read();
            } catch (PartReadException e) {   // a join of what is parsed: no file is read again
                throw new LoadException(fileName, e.getMessage());
            }
        }
        if (Region.TRACE) {
            System.err.printf("  assemble: values %d ms, HloModule %d ms (joined %d of %d ranges)%n", (t2 - t1) / 1_000_000, (System.nanoTime() - t2) / 1_000_000, joined, live == null ? 0 : live.rangeCount());
        }
        return m;
    }

    /**
     * How many instructions the Used values section will hold, without reading it: the scheduled
     * steps, plus the distinct names of values no step defines (XLA prints a block for each value
     * of the allocation section, its instruction line defining the value's own name). By the
     * names' symbols, so a million values cost array reads, not name lookups.
     */
    private static int instructionCount(LiveRangePart live, List<RawValues> rawValues) {
        int steps = live == null ? 0 : live.sequence.size();
        int symbols = 0;
        for (int t = 0; t < steps; t++) symbols = Math.max(symbols, live.sequenceSymbols[t] + 1);
        for (RawValues rv : rawValues) for (int k = 0; k < rv.size; k++) symbols = Math.max(symbols, rv.symbol[k] + 1);
        boolean[] named = new boolean[symbols];   // a step's name, or a value name counted already
        for (int t = 0; t < steps; t++) named[live.sequenceSymbols[t]] = true;
        int unscheduled = 0;
        for (RawValues rv : rawValues) {
            for (int k = 0; k < rv.size; k++) {
                int s = rv.symbol[k];
                if (!named[s]) { named[s] = true; unscheduled++; }
            }
        }
        return steps + unscheduled;
    }

    /**
     * Joins a parsed Used values section to a module's values: each value's block (by id; a later
     * block of the same id wins, as it always has), the instructions it defines put in time order.
     * Its warnings (with lines) and a truncation go to {@code w}.
     */
    static UsedValues usedValues(List<Region> regions, List<HloValue> values, List<String> sequence) {
        Warnings w = new Warnings();
        List<ValuesPart> parts = new ArrayList<>();
        // Instructions of every values part, in dump order (the first part's list takes the others').
        List<HloInstruction> defined = new ArrayList<>();
        boolean firstValues = true;
        boolean truncated = false;
        for (Region r : regions) {
            ValuesPart v = (ValuesPart) r.part;
            if (v.incompleteAt > 0) {
                // A block cut short at the end of the file is truncation; elsewhere, a malformed block.
                if (r.lastOfFile) v.cutShortAt(v.incompleteAt);
                else if (!r.lastOfFile) v.warn(v.incompleteAt, "value block ends without its ' from instruction:' line");
            }
            for (RegionParse.Note n : v.notes()) w.add(r.file.origin(), r.firstLine() + n.line() - 1, n.message());
            for (int i = 0; i < v.dropped(); i++) w.add(r.file.origin(), 0, "(warning not kept)");
            if (v.truncatedAt() > 0 && !truncated && !r.truncationReported) {
                truncated = true;
                w.add(r.file.origin(), r.firstLine() + v.truncatedAt() - 1, "file ends early (truncated?); loaded what it holds");
            }
            parts.add(v);
            if (firstValues) {
                defined = v.instructions;
                firstValues = false;
            } else {
                defined.addAll(v.instructions);
                v.instructions.clear();
            }
        }
        int blocks = 0;
        for (ValuesPart v : parts) blocks += v.count;
        IdTable blockOf = new IdTable(blocks);
        @SuppressWarnings("unchecked") List<HloPosition>[] positionsOf = (List<HloPosition>[]) new List<?>[blocks];
        @SuppressWarnings("unchecked") List<HloUse>[] usesOf = (List<HloUse>[]) new List<?>[blocks];
        // Block j of part k is block partBase[k] + j of the section: the index positionsOf and usesOf take.
        int[] partBase = new int[parts.size() + 1];
        for (int k = 0; k < parts.size(); k++) partBase[k + 1] = partBase[k] + parts.get(k).count;
        // A block whose id an earlier block used: the later one's positions and uses win, so say where
        // the first one is (found only for such an id, from its place in the section).
        Map<Long, String> firstBlockAt = new HashMap<>();
        Map<Long, Integer> sharedBlockIds = new TreeMap<>();
        // Values that share an id (warned about with the allocation section) have a block each: no second warning.
        List<Set<Long>> valueIdsShared = new ArrayList<>(1);
        for (int k = 0; k < parts.size(); k++) {
            ValuesPart v = parts.get(k);
            Region r = regions.get(k);
            for (int i = 0; i < v.count; i++) {
                int earlier = blockOf.get(v.ids[i]);
                if (earlier >= 0 && !idsOfSharedValues(values, valueIdsShared).contains(v.ids[i])) {
                    String first = firstBlockAt.computeIfAbsent(v.ids[i], id -> blockAt(earlier, partBase, parts, regions));
                    w.add(r.file.origin(), r.firstLine() + v.headerLines[i] - 1, "value id " + v.ids[i] + " was already used by the block at "
                            + first + "; ids must be unique (the later block's positions and uses are kept)");
                    sharedBlockIds.merge(v.ids[i], 2, (a, b) -> a + 1);
                }
                blockOf.put(v.ids[i], partBase[k] + i);
            }
        }
        for (int k = 0; k < parts.size(); k++) {
            ValuesPart v = parts.get(k);
            System.arraycopy(v.positionsOf, 0, positionsOf, partBase[k], v.count);
            System.arraycopy(v.usesOf, 0, usesOf, partBase[k], v.count);
        }
        parts.clear();
        // Instructions are put in order on another core while this one joins the values.
        List<HloInstruction> definedFinal = defined;
        ForkJoinTask<List<HloInstruction>> instructionTask = ForkJoinTask.adapt(() -> instructions(definedFinal, sequence)).fork();
        List<List<HloPosition>> positions = new ArrayList<>(values.size());
        List<List<HloUse>> uses = new ArrayList<>(values.size());
        int joined = 0, otherName = 0;
        for (HloValue v : values) {
            int b = blockOf.take(v.id());
            positions.add(b < 0 ? List.of() : positionsOf[b]);
            uses.add(b < 0 ? List.of() : usesOf[b]);
            if (b < 0) continue;
            joined++;
            // An id with two blocks is warned about above (the later block wins): not counted again.
            if (!positionsOf[b].isEmpty() && !holds(positionsOf[b], v.name()) && !sharedBlockIds.containsKey(v.id())) otherName++;
        }
        // A values file of another program joins by id all the same: say so once, with counts.
        if (!regions.isEmpty() && (otherName > 0 || joined == 0 && blocks > 0 && !values.isEmpty())) {
            w.add(regions.get(0).file.origin(), 0, "this values file does not match the buffer assignment (from another "
                    + "program or run?): " + (joined == 0 ? "no value's id is in it"
                    : otherName + " of the " + joined + " values whose ids it holds are not at their own instruction")
                    + "; its positions and uses are shown as they are");
        }
        List<HloInstruction> instructions = instructionTask.tryUnfork() ? instructionTask.invoke() : instructionTask.join();
        return new UsedValues(values, positions, uses, instructions, w.kept(), w.count(), sharedBlockIds);
    }

    /** Whether one of {@code positions} is at instruction {@code name} (a value is always at its defining one). */
    private static boolean holds(List<HloPosition> positions, String name) {
        for (HloPosition p : positions) if (p.instruction().equals(name)) return true;
        return false;
    }

    /** Where block {@code block} of the section (its place over all parts) starts: file and line. */
    private static String blockAt(int block, int[] partBase, List<ValuesPart> parts, List<Region> regions) {
        int k = 0;
        while (partBase[k + 1] <= block) k++;
        Region r = regions.get(k);
        return r.file.origin() + ":" + (r.firstLine() + parts.get(k).headerLines[block - partBase[k]] - 1);
    }

    /** Ids more than one of {@code values} has, computed once into {@code memo} (only when a block id repeats). */
    private static Set<Long> idsOfSharedValues(List<HloValue> values, List<Set<Long>> memo) {
        if (memo.isEmpty()) {
            Set<Long> seen = new HashSet<>(), shared = new HashSet<>();
            for (HloValue v : values) if (!seen.add(v.id())) shared.add(v.id());
            memo.add(shared);
        }
        return memo.get(0);
    }

    /** A warning at every value line of an id seen before (the first line of each id answers {@code value(id)}). */
    private static void warnSharedIds(List<List<HloValue>> shared, List<Region> regions, Warnings w) {
        Set<Long> ids = new HashSet<>();
        for (List<HloValue> g : shared) ids.add(g.get(0).id());
        Map<Long, String> firstAt = new HashMap<>();
        for (Region r : regions) {
            String text = r.source.text(r.from, r.to);
            Lines ls = new Lines(text, 0, text.length(), 1);
            while (ls.next()) {
                if (!ls.startsWith(" value: <")) continue;
                int from = ls.start() + " value: <".length(), to = from;
                while (to < ls.end() && Character.isDigit(ls.text().charAt(to))) to++;
                if (to == from || to - from > 18) continue;
                long id = Long.parseLong(ls.text(), from, to, 10);
                if (!ids.contains(id)) continue;
                long line = r.firstLine() + ls.number() - 1;
                String first = firstAt.putIfAbsent(id, r.file.origin() + ":" + line);
                if (first != null) w.add(r.file.origin(), line, "value id " + id + " was already used at " + first
                        + "; ids must be unique (lookups by id find the first)");
            }
        }
    }

    /** Sequenced instructions in time order, then the others in dump order; the first definition of a name wins. */
    private static List<HloInstruction> instructions(List<HloInstruction> defined, List<String> sequence) {
        NameTable first = new NameTable(defined.size());
        for (int i = defined.size() - 1; i >= 0; i--) first.put(defined.get(i).name(), i);
        List<HloInstruction> instructions = new ArrayList<>(Math.max(sequence.size(), defined.size()));
        for (int t = 0; t < sequence.size(); t++) {
            String name = sequence.get(t);
            int d = first.get(name, -1);
            if (d >= 0) first.put(name, -1);   // what stays is not sequenced
            instructions.add(d < 0 ? HloInstruction.sequenced(name, t) : defined.get(d).withTime(t));
        }
        for (int i = 0; i < defined.size(); i++) {
            HloInstruction d = defined.get(i);
            if (first.get(d.name(), -1) == i) instructions.add(d);
        }
        return instructions;
    }

    private static boolean hasTiles(Shape s) {
        if (!s.tiles().isEmpty()) return true;
        // By index: an iterator per call, a call per value at a million values, was 30 ms of the join.
        List<Shape> elements = s.tupleElements();
        for (int i = 0; i < elements.size(); i++) if (hasTiles(elements.get(i))) return true;
        return false;
    }
}
