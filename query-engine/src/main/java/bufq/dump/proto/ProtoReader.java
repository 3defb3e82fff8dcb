package bufq.dump.proto;

import bufq.model.HloModule;
import bufq.model.HloModuleBuilder;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;

import java.io.IOException;
import java.util.List;
import java.util.SortedMap;

/**
 * Reads the protos XLA and the profiler write: an {@code xla.HloProto} ({@code *.hlo.pb}, the
 * module with its buffer assignment), a bare {@code xla.BufferAssignmentProto}
 * ({@code compiled.memory_analysis().serialized_buffer_assignment_proto}), and a profile's
 * {@code tensorflow.profiler.XSpace} ({@code *.xplane.pb}), whose {@code /host:metadata} plane
 * carries each module's HloProto. The kind is judged by content, not by name. Errors are
 * {@link ProtoException}s naming the byte offset and the message path. A dump's proto files are
 * found, and their modules made, by {@link ProtoSources}; {@link #load} reads bytes at hand.
 */
public final class ProtoReader {
    private ProtoReader() {}

    /** What a proto holds. */
    enum Kind { HLO_PROTO, BUFFER_ASSIGNMENT, XSPACE }

    /** Judges {@code bytes[from, from + length)} by its first fields. */
    static Kind kind(byte[] bytes, int from, int length) throws ProtoException {
        if (length == 0) throw new ProtoException(0, "", "empty file, expected an HloProto, a BufferAssignmentProto or an XSpace");
        CodedInputStream in = CodedInputStream.newInstance(bytes, from, length);
        int firstTag1 = -1, firstTag3 = -1;
        boolean any = false;
        try {
            while (!in.isAtEnd()) {
                long at = in.getTotalBytesRead();
                int tag = in.readTag();
                int field = WireFormat.getTagFieldNumber(tag);
                int wt = WireFormat.getTagWireType(tag);
                if (field == 0 || wt > WireFormat.WIRETYPE_FIXED32 || wt == WireFormat.WIRETYPE_START_GROUP
                        || wt == WireFormat.WIRETYPE_END_GROUP) {
                    throw new ProtoException(at, "", "not a proto message (field " + field + " with wire type " + wt + ")");
                }
                any = true;
                if (wt == WireFormat.WIRETYPE_LENGTH_DELIMITED && (field == 1 || field == 3)) {
                    int n = in.readRawVarint32();
                    int start = from + in.getTotalBytesRead();
                    if (n < 0 || (long) start + n > (long) from + length) {
                        throw new ProtoException(at, "", "field " + field + " claims " + n + " bytes, past the end of the data (truncated file?)");
                    }
                    int firstTag = firstTag(bytes, start, n);
                    if (field == 1 && firstTag1 < 0) firstTag1 = firstTag;
                    if (field == 3 && firstTag3 < 0) firstTag3 = firstTag;
                    in.skipRawBytes(n);
                } else {
                    in.skipField(tag);
                }
            }
        } catch (IOException e) {
            throw new ProtoException(in.getTotalBytesRead(), "", "data ends inside a field (truncated file?)");
        }
        if (firstTag1 > 0) {
            int f = WireFormat.getTagFieldNumber(firstTag1), wt = WireFormat.getTagWireType(firstTag1);
            if (f == 1 && wt == WireFormat.WIRETYPE_LENGTH_DELIMITED) return Kind.HLO_PROTO;   // HloModuleProto.name
            if (isXPlane(bytes, from, length)) return Kind.XSPACE;
            return Kind.BUFFER_ASSIGNMENT;                                                     // LogicalBufferProto
        }
        if (firstTag3 > 0) {
            // HloProto.buffer_assignment starts with messages; a BufferAllocationProto with numbers.
            return WireFormat.getTagWireType(firstTag3) == WireFormat.WIRETYPE_LENGTH_DELIMITED ? Kind.HLO_PROTO : Kind.BUFFER_ASSIGNMENT;
        }
        throw new ProtoException(0, "", any ? "no field 1 or 3: not an HloProto, a BufferAssignmentProto or an XSpace"
                : "no fields: not an HloProto, a BufferAssignmentProto or an XSpace");
    }

    /**
     * A guess from the first {@code n} bytes of a file (a directory walk reads no more): the kind,
     * or null when the head says nothing clear (loading then judges the whole file).
     */
    static Kind sniff(byte[] head, int n) {
        try {
            CodedInputStream in = CodedInputStream.newInstance(head, 0, n);
            int tag = in.readTag();
            int field = WireFormat.getTagFieldNumber(tag);
            if (WireFormat.getTagWireType(tag) != WireFormat.WIRETYPE_LENGTH_DELIMITED || (field != 1 && field != 3)) return null;
            in.readRawVarint32();
            int inner = in.readTag();
            int f = WireFormat.getTagFieldNumber(inner), wt = WireFormat.getTagWireType(inner);
            if (field == 3) return wt == WireFormat.WIRETYPE_LENGTH_DELIMITED ? Kind.HLO_PROTO : Kind.BUFFER_ASSIGNMENT;
            if (f == 1 && wt == WireFormat.WIRETYPE_LENGTH_DELIMITED) return Kind.HLO_PROTO;
            for (int t = inner; t != 0; t = in.readTag()) {
                if (WireFormat.getTagFieldNumber(t) == 2) {
                    return WireFormat.getTagWireType(t) == WireFormat.WIRETYPE_LENGTH_DELIMITED ? Kind.XSPACE : Kind.BUFFER_ASSIGNMENT;
                }
                if (!in.skipField(t)) return null;
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static int firstTag(byte[] bytes, int from, int n) {
        if (n == 0) return 0;
        try {
            return CodedInputStream.newInstance(bytes, from, n).readTag();
        } catch (IOException e) {
            return 0;
        }
    }

    /** An XSpace's first plane has a string name (field 2) where a LogicalBufferProto has its size. */
    private static boolean isXPlane(byte[] bytes, int from, int length) {
        try {
            CodedInputStream in = CodedInputStream.newInstance(bytes, from, length);
            in.readTag();
            int n = in.readRawVarint32();
            CodedInputStream plane = CodedInputStream.newInstance(bytes, from + in.getTotalBytesRead(), n);
            while (!plane.isAtEnd()) {
                int t = plane.readTag();
                if (WireFormat.getTagFieldNumber(t) == FieldNumbers.XPlane.NAME) return WireFormat.getTagWireType(t) == WireFormat.WIRETYPE_LENGTH_DELIMITED;
                plane.skipField(t);
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The modules of a profile's XSpace, from its {@code /host:metadata} plane, in event-metadata order. */
    static List<ProfileModule> xspaceModules(byte[] bytes) throws ProtoException {
        return XSpaceReader.modules(bytes);
    }

    /** The JAX and jaxlib versions an XSpace's metadata plane records, each null when it does not. */
    static String[] xspaceVersions(byte[] bytes) throws ProtoException {
        return XSpaceReader.versions(bytes);
    }

    /** {@code cpu}, {@code gpu} or {@code tpu} from an XSpace's device planes, else {@code unknown}. */
    static String xspaceBackend(byte[] bytes) throws ProtoException {
        return XSpaceReader.backend(bytes);
    }

    /**
     * Loads the HloProto or bare BufferAssignmentProto at {@code bytes[from, from + length)}.
     *
     * @param base    that slice's offset in its file (for error offsets)
     * @param file    the name warnings and errors give
     * @param name    the module's name when the proto carries none (a bare assignment)
     * @param number  module number, or -1
     * @param backend {@code cpu}, {@code gpu}, {@code tpu} or {@code unknown}
     * @param inProfile whether the slice is a module carried by a profile's XSpace (its kind, {@code profile})
     * @throws ProtoException a proto of another kind, or one cut short or malformed
     */
    public static HloModule load(byte[] bytes, int from, int length, long base, String file, String name, int number,
                                 String backend, boolean inProfile) throws ProtoException {
        return load(bytes, from, length, base, file, name, number, backend, inProfile, null);
    }

    /**
     * The totals by colour of a memory usage report proto ({@code *-memory-usage-report.pb}), what
     * the text report's {@code Memory Space} / {@code Total bytes} lines give.
     *
     * @throws ProtoException a proto of another kind, or one cut short or malformed
     */
    static SortedMap<Integer, Long> reportTotals(byte[] bytes) throws ProtoException {
        return ReportReader.colorTotals(bytes, 0, bytes.length, 0);
    }

    /** A module known only from its memory usage report proto: no allocations or values, the totals by colour. */
    static HloModule reportAlone(UsageReport report, String name, int number, String backend) {
        HloModule.Info info = new HloModule.Info(name, name, number, backend, List.of(report.file()), -1, null, null, -1,
                null, report.colorTotals(), false, null, HloModule.Info.REPORT_PROTO, null, null, null);
        return new HloModuleBuilder(info).build();
    }

    /** As above, with the module's memory usage report proto when one was read beside it (else null). */
    static HloModule load(byte[] bytes, int from, int length, long base, String file, String name, int number,
                                 String backend, boolean inProfile, UsageReport report) throws ProtoException {
        Kind k = kind(bytes, from, length);
        Messages.HloProto p = switch (k) {
            case HLO_PROTO -> HloProtoParser.hloProto(bytes, from, length, base);
            case BUFFER_ASSIGNMENT -> new Messages.HloProto(null, BufferAssignmentParser.bufferAssignment(bytes, from, length, base));
            case XSPACE -> throw new ProtoException(base, "XSpace", "a profile (XSpace) holds several modules: open the file itself");
        };
        if (p.assignment() == null) {
            throw new ProtoException(base + length, "HloProto", "no buffer_assignment (field 3): a module before "
                    + "optimizations? bufq reads the after-optimizations .hlo.pb");
        }
        if (p.module() != null && p.module().computations().isEmpty()) {
            throw new ProtoException(base, "HloProto.hlo_module", "the module has no computations");
        }
        String format = inProfile ? HloModule.Info.PROFILE
                : k == Kind.HLO_PROTO ? HloModule.Info.HLO_PROTO : HloModule.Info.ASSIGNMENT_PROTO;
        try {
            return ModuleBuilder.build(p, file, name, number, backend, format, report);
        } catch (Dataflow.Stopped e) {
            if (e.cancelled) throw ProtoException.cancelled(base, "HloProto.hlo_module");
            throw new ProtoException(base, "HloProto.hlo_module", e.getMessage());
        }
    }
}
