package bufq.dump.proto;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the modules of a profile capture: in the XSpace's {@code /host:metadata} plane, each event
 * metadata's stat named {@code Hlo Proto} holds one module's {@code xla.HloProto} as bytes (what
 * XProf's memory viewer reads), and its {@code program_id} stat the program number. Only the slices
 * are found here; each module is parsed when loaded. The plane's own stats name the JAX and jaxlib
 * versions that wrote the capture.
 */
final class XSpaceReader {
    private XSpaceReader() {}

    static final String METADATA_PLANE = "/host:metadata";
    static final String HLO_PROTO_STAT = "Hlo Proto";
    static final String PROGRAM_ID_STAT = "program_id";
    static final String JAX_VERSION_STAT = "jax_version", JAXLIB_VERSION_STAT = "jaxlib_version";

    /** One XStat: its value as a number, a span of bytes, text, or a reference to a stat metadata whose name is the text (0: none). */
    private record Stat(long metadataId, long number, int[] bytes, String text, long ref) {}

    private record EventMetadata(long id, String name, List<Stat> stats) {}

    private record Plane(String name, List<EventMetadata> events, Map<Long, String> statNames, List<Stat> stats) {
        /** The text of the plane's own stat named {@code name}, or null. */
        String text(String name) {
            for (Stat s : stats) {
                if (!name.equals(statNames.get(s.metadataId()))) continue;
                return s.text() != null ? s.text() : statNames.get(s.ref());
            }
            return null;
        }
    }

    static List<ProfileModule> modules(byte[] bytes) throws ProtoException {
        List<ProfileModule> out = new ArrayList<>();
        boolean metadataPlane = false;
        for (Plane p : planes(bytes, true)) {
            if (!p.name().equals(METADATA_PLANE)) continue;
            metadataPlane = true;
            for (EventMetadata e : p.events()) {
                int[] hlo = null;
                int number = -1;
                for (Stat s : e.stats()) {
                    String n = p.statNames().get(s.metadataId());
                    if (HLO_PROTO_STAT.equals(n) && s.bytes() != null) hlo = s.bytes();
                    else if (PROGRAM_ID_STAT.equals(n)) number = (int) s.number();
                }
                if (hlo != null) out.add(new ProfileModule(e.name(), number, hlo[0], hlo[1]));
            }
        }
        if (!metadataPlane) throw new ProtoException(0, "XSpace", "no " + METADATA_PLANE + " plane: the profile carries no modules");
        if (out.isEmpty()) throw new ProtoException(0, "XSpace", "the " + METADATA_PLANE + " plane carries no '" + HLO_PROTO_STAT + "' stats");
        return out;
    }

    /** The JAX and jaxlib versions the {@code /host:metadata} plane's stats name, each null when absent. */
    static String[] versions(byte[] bytes) throws ProtoException {
        for (Plane p : planes(bytes, true)) {
            if (p.name().equals(METADATA_PLANE)) return new String[] {p.text(JAX_VERSION_STAT), p.text(JAXLIB_VERSION_STAT)};
        }
        return new String[2];
    }

    static String backend(byte[] bytes) throws ProtoException {
        String backend = "unknown";
        for (Plane p : planes(bytes, false)) {
            String n = p.name();
            if (n.startsWith("/device:TPU")) return "tpu";
            if (n.startsWith("/device:GPU")) return "gpu";
            if (n.startsWith("/host:CPU") || n.startsWith("/device:CPU")) backend = "cpu";
        }
        return backend;
    }

    private static List<Plane> planes(byte[] bytes, boolean withMetadata) throws ProtoException {
        Wire w = new Wire(bytes, 0, bytes.length, 0, "XSpace");
        List<Plane> out = new ArrayList<>();
        for (int f; (f = w.next()) != 0; ) {
            if (f != FieldNumbers.XSpace.PLANES) {
                w.skip();
                continue;
            }
            int l = w.enter("planes", out.size());
            out.add(plane(w, withMetadata));
            w.leave(l);
        }
        return out;
    }

    private static Plane plane(Wire w, boolean withMetadata) throws ProtoException {
        String name = "";
        List<EventMetadata> events = new ArrayList<>();
        Map<Long, String> statNames = new HashMap<>();
        List<Stat> stats = new ArrayList<>();
        int entries = 0, statEntries = 0;
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.XPlane.NAME -> name = w.string("name");
                case FieldNumbers.XPlane.EVENT_METADATA -> {
                    if (!withMetadata) { w.skip(); break; }
                    int l = w.enter("event_metadata", entries++);
                    for (int g; (g = w.next()) != 0; ) {
                        if (g == FieldNumbers.MapEntry.VALUE) {
                            int l2 = w.enter("value", -1);
                            events.add(eventMetadata(w));
                            w.leave(l2);
                        } else {
                            w.skip();
                        }
                    }
                    w.leave(l);
                }
                case FieldNumbers.XPlane.STAT_METADATA -> {
                    if (!withMetadata) { w.skip(); break; }
                    int l = w.enter("stat_metadata", statEntries++);
                    for (int g; (g = w.next()) != 0; ) {
                        if (g == FieldNumbers.MapEntry.VALUE) {
                            int l2 = w.enter("value", -1);
                            long id = 0;
                            String n = "";
                            for (int h; (h = w.next()) != 0; ) {
                                switch (h) {
                                    case FieldNumbers.XStatMetadata.ID -> id = w.int64("id");
                                    case FieldNumbers.XStatMetadata.NAME -> n = w.string("name");
                                    default -> w.skip();
                                }
                            }
                            statNames.put(id, n);
                            w.leave(l2);
                        } else {
                            w.skip();
                        }
                    }
                    w.leave(l);
                }
                case FieldNumbers.XPlane.STATS -> {
                    if (!withMetadata) { w.skip(); break; }
                    int l = w.enter("stats", stats.size());
                    stats.add(stat(w));
                    w.leave(l);
                }
                default -> w.skip();
            }
        }
        return new Plane(name, events, statNames, stats);
    }

    private static Stat stat(Wire w) throws ProtoException {
        long metadata = 0, number = 0, ref = 0;
        int[] span = null;
        String text = null;
        for (int g; (g = w.next()) != 0; ) {
            switch (g) {
                case FieldNumbers.XStat.METADATA_ID -> metadata = w.int64("metadata_id");
                case FieldNumbers.XStat.INT64_VALUE -> number = w.int64("int64_value");
                case FieldNumbers.XStat.UINT64_VALUE -> number = w.int64("uint64_value");
                case FieldNumbers.XStat.REF_VALUE -> ref = w.int64("ref_value");
                case FieldNumbers.XStat.STR_VALUE -> text = w.string("str_value");
                case FieldNumbers.XStat.BYTES_VALUE -> span = w.bytesSpan("bytes_value");
                default -> w.skip();
            }
        }
        return new Stat(metadata, number, span, text, ref);
    }

    private static EventMetadata eventMetadata(Wire w) throws ProtoException {
        long id = 0;
        String name = "";
        List<Stat> stats = new ArrayList<>(2);
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.XEventMetadata.ID -> id = w.int64("id");
                case FieldNumbers.XEventMetadata.NAME -> name = w.string("name");
                case FieldNumbers.XEventMetadata.STATS -> {
                    int l = w.enter("stats", stats.size());
                    stats.add(stat(w));
                    w.leave(l);
                }
                default -> w.skip();
            }
        }
        return new EventMetadata(id, name, stats);
    }
}
