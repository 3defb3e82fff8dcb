package bufq.dump;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.Module;
import bufq.model.Shape;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Joins the parsed parts of one module: values get their Used-values details (by id) and their
 * BufferLiveRange (by name and canonical index); instructions get their time from the
 * InstructionSequence. Every join that fails is a warning naming the line.
 */
final class ModuleAssembler {
    private ModuleAssembler() {}

    static Module assemble(ModuleSource source, List<ModuleReader.Region> regions) {
        Warnings w = new Warnings();
        List<BufferAllocation> allocations = new ArrayList<>();
        List<HloValue> rawValues = new ArrayList<>();
        Long total = null;
        // The first values part's maps take the others' entries: no second copy of a big module.
        Map<Long, ValuesPart.Details> details = new HashMap<>();
        Map<String, HloInstruction> defined = new LinkedHashMap<>();
        boolean firstValues = true;
        LiveRangePart live = null;
        ModuleReader.Region liveRegion = null;
        ReportPart report = null;
        boolean hasDetails = false;
        String truncatedAt = null;

        for (int ri = 0; ri < regions.size(); ri++) {
            ModuleReader.Region r = regions.get(ri);
            Part p = r.part;
            boolean lastOfFile = ri + 1 == regions.size() || regions.get(ri + 1).file != r.file;
            if (p instanceof ValuesPart v && v.incompleteAt > 0) {
                // A block cut short at the end of the file is truncation; elsewhere, a malformed block.
                if (lastOfFile && p.truncatedAt == 0) p.truncatedAt = v.incompleteAt;
                else if (!lastOfFile) p.warn(v.incompleteAt, "value block ends without its ' from instruction:' line");
            }
            for (Part.Note n : p.notes) w.add(r.file.origin(), r.firstLine + n.line() - 1, n.message());
            for (int i = 0; i < p.dropped; i++) w.add(r.file.origin(), 0, "(warning not kept)");
            if (p.truncatedAt > 0 && truncatedAt == null) {
                long at = r.firstLine + p.truncatedAt - 1;
                truncatedAt = r.file.origin() + ":" + at;
                w.add(r.file.origin(), at, "file ends early (truncated?); loaded what it holds");
            }
            if (p instanceof AllocationPart a) {
                allocations.addAll(a.allocations);
                rawValues.addAll(a.values);
                a.values.clear();
                if (a.totalBytes != null && total == null) total = a.totalBytes;
            } else if (p instanceof ValuesPart v) {
                hasDetails = true;
                if (firstValues) {
                    details = v.details;
                    defined = v.instructions;
                    firstValues = false;
                } else {
                    details.putAll(v.details);
                    for (Map.Entry<String, HloInstruction> e : v.instructions.entrySet()) defined.putIfAbsent(e.getKey(), e.getValue());
                    v.details.clear();
                    v.instructions.clear();
                }
            } else if (p instanceof LiveRangePart l) {
                if (live == null) { live = l; liveRegion = r; }
                else w.add(r.file.origin(), r.firstLine, "second HloLiveRange section ignored");
            } else if (p instanceof ReportPart rp && report == null) {
                report = rp;
            }
        }

        // A module known only from its report: allocations with the report's (rounded) sizes.
        if (allocations.isEmpty() && report != null) {
            for (AllocationLine a : report.allocations.values()) allocations.add(a.toAllocation(true, List.of()));  // exact only where printed in plain bytes
            allocations.sort((x, y) -> Integer.compare(x.index(), y.index()));
        }
        if (total == null && report != null) total = report.total();

        // Values joined with details and live ranges.
        int joined = 0;
        int valueCount = rawValues.size();
        List<HloValue> values = new ArrayList<>(valueCount);
        boolean tiles = false;
        for (int k = 0; k < valueCount; k++) {
            HloValue v = rawValues.set(k, null);   // let the unjoined copy go as we build the joined one
            ValuesPart.Details d = details.remove(v.id());
            LiveRange lr = live == null ? null : live.rangeOf(v.name(), v.index());
            if (lr != null) joined++;
            if (!tiles && hasTiles(v.shape())) tiles = true;
            values.add(new HloValue(v.id(), v.name(), v.index(), v.indexPrinted(), v.phi(), v.color(), v.size(),
                    v.offset(), v.allocation(), v.shape(), d == null ? List.of() : d.positions(),
                    d == null ? List.of() : d.uses(), lr));
        }
        if (live != null && valueCount > 0 && joined != live.rangeCount()) {
            Set<String> unjoined = live.keys();
            for (HloValue v : values) unjoined.remove(v.key());
            String text = liveRegion.source.text(liveRegion.from, liveRegion.to);
            for (Map.Entry<Long, String> e : LiveRangePart.linesOf(unjoined, text).entrySet()) {
                w.add(liveRegion.file.origin(), liveRegion.firstLine + e.getKey() - 1,
                        "live range of '" + e.getValue() + "' matches no value in the allocation section");
            }
        }

        // Instructions: sequenced ones in time order, then the others in dump order.
        List<String> sequence = live == null ? List.of() : live.sequence;
        List<HloInstruction> instructions = new ArrayList<>(Math.max(sequence.size(), defined.size()));
        for (int t = 0; t < sequence.size(); t++) {
            HloInstruction d = defined.remove(sequence.get(t));   // what stays is not sequenced
            instructions.add(d == null ? HloInstruction.sequenced(sequence.get(t), t) : d.withTime(t));
        }
        instructions.addAll(defined.values());

        String stem = source.name();
        String fileName = source.dumpFiles().get(0).name();
        int slash = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
        String backend = DumpNames.backend(FileKind.prefix(fileName.substring(slash + 1)));
        if (backend == null) backend = tiles ? "tpu" : "unknown";

        Module.Info info = new Module.Info(stem, stem, source.number(), backend, source.files(),
                live == null ? -1 : live.maxTime, total, live == null ? null : live.peak,
                live == null ? -1 : live.stackBytes, live == null ? null : live.stack,
                report == null ? new TreeMap<>() : report.colorTotals, hasDetails, truncatedAt);
        return new Module(info, allocations, values, instructions, sequence, w.kept(), w.count());
    }

    private static boolean hasTiles(Shape s) {
        if (!s.tiles().isEmpty()) return true;
        for (Shape e : s.tupleElements()) if (hasTiles(e)) return true;
        return false;
    }
}
