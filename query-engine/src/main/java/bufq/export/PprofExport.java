package bufq.export;

import bufq.analysis.blame.Blame;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.OccupiedShares;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import static bufq.export.ProfileFields.*;

/**
 * The values live at one step as a pprof profile (gzipped {@code perftools.profiles.Profile}, the
 * format {@code go tool pprof} and {@code jax.profiler.device_memory_profile()} share). One sample
 * per live value with two figures, {@code objects/count} (1) and {@code space/bytes}, the value's
 * share of the occupied bytes (see {@link OccupiedShares}); its location stack per
 * {@link ProfileStacks}; labels {@code value}, {@code shape}, {@code dtype}, {@code allocation} and
 * {@code color}. Written field by field with protobuf's
 * {@link CodedOutputStream}: samples as they are made, then the functions, locations and strings
 * they refer to.
 */
public final class PprofExport {
    /** What was written: samples (values live then) and their space figures summed. */
    public record Summary(int samples, long bytes) {}

    private final HloModule module;
    private final ProfileStacks by;
    private final Map<String, Long> strings = new HashMap<>();
    private final List<String> stringTable = new ArrayList<>();
    private final Map<String, Long> functions = new HashMap<>();     // name \0 file -> id
    private final List<long[]> functionRows = new ArrayList<>();     // {id, name, file}
    private final Map<Long, Long> locations = new HashMap<>();       // function id << 32 | line -> id
    private final List<long[]> locationRows = new ArrayList<>();     // {id, function id, line}

    private PprofExport(HloModule module, ProfileStacks by) {
        this.module = module;
        this.by = by;
        string("");   // string_table[0] must be ""
    }

    /**
     * Writes the profile of the values live at {@code step}, gzipped, to {@code out} (left open).
     *
     * @param stepName how the user named the step ({@code peak}, {@code claimed_peak} or the number),
     *                 for the profile's comments
     * @throws IllegalArgumentException when the module has no such step
     */
    public static Summary write(HloModule m, int step, String stepName, ProfileStacks by, OutputStream out)
            throws IOException {
        if (step < 0 || step >= m.steps())
            throw new IllegalArgumentException(m.steps() == 0 ? m.handle() + " has no live ranges, so no step to export"
                    : "no step " + step + " in " + m.handle() + " (steps 0.." + (m.steps() - 1) + ")");
        try (GZIPOutputStream gz = new GZIPOutputStream(nonClosing(out), 1 << 16)) {
            CodedOutputStream o = CodedOutputStream.newInstance(gz, 1 << 16);
            Summary s = new PprofExport(m, by).writeProfile(o, step, stepName);
            o.flush();
            return s;
        }
    }

    private Summary writeProfile(CodedOutputStream o, int step, String stepName) throws IOException {
        long count = string("objects"), space = string("space"), bytes = string("bytes");
        writeValueType(o, PROFILE_SAMPLE_TYPE, count, string("count"));
        writeValueType(o, PROFILE_SAMPLE_TYPE, space, bytes);
        writeValueType(o, PROFILE_PERIOD_TYPE, space, bytes);
        o.writeInt64(PROFILE_PERIOD, 1);
        o.writeInt64(PROFILE_DEFAULT_SAMPLE_TYPE, space);
        String at = module.sequence().size() > step ? " (" + module.sequence().get(step) + ")" : "";
        o.writeInt64(PROFILE_COMMENT, string("bufq: values of " + module.handle() + " live at step " + step + at
                + (stepName.equals(String.valueOf(step)) ? "" : ", its " + stepName)));
        o.writeInt64(PROFILE_COMMENT, string("space: occupied bytes, each byte of an allocation counted once"
                + " (a value sharing bytes with one listed before it counts only the rest); objects: values"));

        List<HloValue> live = LiveValues.inDevice(module, step);
        long[] shares = OccupiedShares.of(live);
        long total = 0;
        long valueKey = string("value"), shapeKey = string("shape"), dtypeKey = string("dtype");
        long allocationKey = string("allocation"), colorKey = string("color");
        for (int i = 0; i < live.size(); i++) {
            HloValue v = live.get(i);
            List<Long> stack = locationIds(v);   // leaf first
            // Strings all: pprof drops a numeric label whose value is 0 (allocation 0, colour 0).
            long[][] labels = {
                    {valueKey, string(v.label())},
                    {shapeKey, string(v.shape().text())},
                    {dtypeKey, string(v.shape().dtype())},
                    {allocationKey, string(String.valueOf(v.allocation()))},
                    {colorKey, string(String.valueOf(v.color()))},
            };
            writeSample(o, stack, new long[] {1, shares[i]}, labels);
            total += shares[i];
        }

        long moduleName = string(module.info().name() == null ? module.handle() : module.info().name());
        o.writeTag(PROFILE_MAPPING, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        o.writeUInt32NoTag(CodedOutputStream.computeUInt64Size(MAPPING_ID, 1)
                + CodedOutputStream.computeInt64Size(MAPPING_FILENAME, moduleName)
                + 3 * CodedOutputStream.computeBoolSize(MAPPING_HAS_FUNCTIONS, true));
        o.writeUInt64(MAPPING_ID, 1);
        o.writeInt64(MAPPING_FILENAME, moduleName);
        o.writeBool(MAPPING_HAS_FUNCTIONS, true);
        o.writeBool(MAPPING_HAS_FILENAMES, true);
        o.writeBool(MAPPING_HAS_LINE_NUMBERS, true);
        for (long[] l : locationRows) {
            int line = CodedOutputStream.computeUInt64Size(LINE_FUNCTION_ID, l[1]) + CodedOutputStream.computeInt64Size(LINE_LINE, l[2]);
            o.writeTag(PROFILE_LOCATION, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            o.writeUInt32NoTag(CodedOutputStream.computeUInt64Size(LOCATION_ID, l[0])
                    + CodedOutputStream.computeUInt64Size(LOCATION_MAPPING_ID, 1)
                    + CodedOutputStream.computeTagSize(LOCATION_LINE) + CodedOutputStream.computeUInt32SizeNoTag(line) + line);
            o.writeUInt64(LOCATION_ID, l[0]);
            o.writeUInt64(LOCATION_MAPPING_ID, 1);
            o.writeTag(LOCATION_LINE, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            o.writeUInt32NoTag(line);
            o.writeUInt64(LINE_FUNCTION_ID, l[1]);
            o.writeInt64(LINE_LINE, l[2]);
        }
        // No system_name: pprof "demangles" a function whose system name equals its name, and would cut
        // the parenthesised parts out of an op_name with brackets or '->' in it.
        for (long[] f : functionRows) {
            o.writeTag(PROFILE_FUNCTION, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            o.writeUInt32NoTag(CodedOutputStream.computeUInt64Size(FUNCTION_ID, f[0])
                    + CodedOutputStream.computeInt64Size(FUNCTION_NAME, f[1])
                    + CodedOutputStream.computeInt64Size(FUNCTION_FILENAME, f[2]));
            o.writeUInt64(FUNCTION_ID, f[0]);
            o.writeInt64(FUNCTION_NAME, f[1]);
            o.writeInt64(FUNCTION_FILENAME, f[2]);
        }
        for (String s : stringTable) o.writeString(PROFILE_STRING_TABLE, s);
        return new Summary(live.size(), total);
    }

    /** One frame of a stack: a function name, its file ("" when none) and line (0 when none). */
    private record Frame(String name, String file, long line) {}

    /** The value's location ids, leaf first, as pprof wants them. */
    private List<Long> locationIds(HloValue v) {
        List<Frame> frames = frames(v);
        List<Long> ids = new ArrayList<>(frames.size());
        for (int i = frames.size() - 1; i >= 0; i--) ids.add(location(frames.get(i)));
        return ids;
    }

    /**
     * The value's frames, root first. By stack, the instruction's Python stack when the dump has one
     * (a proto dump's stack frames: pprof's {@code -lines} then lists source lines). An op_name level is named by its whole path so that pprof's
     * cumulative figure for it is {@code blame by op_name}'s row; a value without an op_name stands
     * under its instruction's name, as in blame and XLA's stack-trace tree.
     */
    private List<Frame> frames(HloValue v) {
        HloInstruction ins = module.instruction(v.name());
        String source = ins == null ? null : ins.source();
        Frame leaf = source == null ? null : new Frame(source, ins.sourceFile(), Math.max(0, ins.sourceLine()));
        if (by == ProfileStacks.SOURCE) return List.of(leaf == null ? new Frame("(no source)", "", 0) : leaf);
        List<Frame> out = new ArrayList<>();
        if (by == ProfileStacks.STACK && ins != null && !ins.stack().isEmpty()) {
            for (String frame : ins.stack()) out.add(pythonFrame(frame));
            return out;
        }
        String op = ins == null ? null : ins.opName();
        if (op == null || op.isEmpty()) {
            // by op_name: blame's one bucket for values without op_name; under a stack: the value's name
            out.add(new Frame(by == ProfileStacks.STACK ? v.name() : "(no op_name)", "", 0));
        } else {
            StringBuilder prefix = new StringBuilder();
            for (String part : Blame.opNamePath(op)) {
                if (prefix.length() > 0) prefix.append('/');
                prefix.append(part);
                out.add(new Frame(prefix.toString(), "", 0));
            }
        }
        if (by == ProfileStacks.STACK && leaf != null) out.add(leaf);
        return out;
    }

    /** A frame of {@link HloInstruction#stack()}, {@code file:line (function)}, as pprof's function, file and line. */
    private static Frame pythonFrame(String frame) {
        int paren = frame.endsWith(")") ? frame.lastIndexOf(" (") : -1;
        String where = paren < 0 ? frame : frame.substring(0, paren);
        String function = paren < 0 ? where : frame.substring(paren + 2, frame.length() - 1);
        int colon = where.lastIndexOf(':');
        long line = 0;
        if (colon > 0) {
            try {
                line = Long.parseLong(where.substring(colon + 1));
                where = where.substring(0, colon);
            } catch (NumberFormatException e) {
                // no line number: the whole text is the file
            }
        }
        return new Frame(function, where, line);
    }

    private long location(Frame f) {
        long fn = functions.computeIfAbsent(f.name() + '\0' + f.file(), k -> {
            long id = functionRows.size() + 1;
            functionRows.add(new long[] {id, string(f.name()), string(f.file())});
            return id;
        });
        return locations.computeIfAbsent(fn << 32 | f.line(), k -> {
            long id = locationRows.size() + 1;
            locationRows.add(new long[] {id, fn, f.line()});
            return id;
        });
    }

    private long string(String s) {
        Long i = strings.get(s);
        if (i != null) return i;
        long id = stringTable.size();
        strings.put(s, id);
        stringTable.add(s);
        return id;
    }

    private static void writeValueType(CodedOutputStream o, int field, long type, long unit) throws IOException {
        o.writeTag(field, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        o.writeUInt32NoTag(CodedOutputStream.computeInt64Size(VALUE_TYPE_TYPE, type)
                + CodedOutputStream.computeInt64Size(VALUE_TYPE_UNIT, unit));
        o.writeInt64(VALUE_TYPE_TYPE, type);
        o.writeInt64(VALUE_TYPE_UNIT, unit);
    }

    /** A sample: packed location ids and values, then string labels ({key, str}). */
    private static void writeSample(CodedOutputStream o, List<Long> locationIds, long[] values, long[][] labels)
            throws IOException {
        int ids = 0;
        for (long id : locationIds) ids += CodedOutputStream.computeUInt64SizeNoTag(id);
        int vals = 0;
        for (long v : values) vals += CodedOutputStream.computeInt64SizeNoTag(v);
        int size = packedSize(SAMPLE_LOCATION_ID, ids) + packedSize(SAMPLE_VALUE, vals);
        for (long[] l : labels) size += CodedOutputStream.computeTagSize(SAMPLE_LABEL) + CodedOutputStream.computeUInt32SizeNoTag(labelSize(l)) + labelSize(l);
        o.writeTag(PROFILE_SAMPLE, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        o.writeUInt32NoTag(size);
        o.writeTag(SAMPLE_LOCATION_ID, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        o.writeUInt32NoTag(ids);
        for (long id : locationIds) o.writeUInt64NoTag(id);
        o.writeTag(SAMPLE_VALUE, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        o.writeUInt32NoTag(vals);
        for (long v : values) o.writeInt64NoTag(v);
        for (long[] l : labels) {
            o.writeTag(SAMPLE_LABEL, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            o.writeUInt32NoTag(labelSize(l));
            o.writeInt64(LABEL_KEY, l[0]);
            o.writeInt64(LABEL_STR, l[1]);
        }
    }

    private static int labelSize(long[] l) {
        return CodedOutputStream.computeInt64Size(LABEL_KEY, l[0]) + CodedOutputStream.computeInt64Size(LABEL_STR, l[1]);
    }

    private static int packedSize(int field, int dataSize) {
        return CodedOutputStream.computeTagSize(field) + CodedOutputStream.computeUInt32SizeNoTag(dataSize) + dataSize;
    }

    /** The caller owns {@code out}: finishing the gzip stream must not close it. */
    private static OutputStream nonClosing(OutputStream out) {
        return new FilterOutputStream(out) {
            @Override public void write(byte[] b, int off, int len) throws IOException { out.write(b, off, len); }
            @Override public void close() throws IOException { flush(); }
        };
    }
}
