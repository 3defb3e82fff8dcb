package bufq.export;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * A pprof profile read back with protobuf's {@link CodedInputStream}, field numbers written out here
 * from pprof's profile.proto (not taken from {@link ProfileFields}, so a wrong number there fails).
 * Accepts packed and unpacked repeated numbers, as pprof does; skips fields it does not know.
 */
final class DecodedProfile {
    record Sample(List<Long> locationIds, List<Long> values, Map<String, String> strLabels, Map<String, Long> numLabels) {}

    final List<long[]> sampleTypes = new ArrayList<>();   // {type, unit}
    final List<Sample> samples = new ArrayList<>();
    final Map<Long, long[]> locations = new HashMap<>();  // id -> {function id, line}
    final Map<Long, long[]> functions = new HashMap<>();  // id -> {name, filename}
    final List<String> strings = new ArrayList<>();
    final List<Long> comments = new ArrayList<>();
    long defaultSampleType;
    int mappings;

    static DecodedProfile readGzipped(InputStream in) throws IOException {
        DecodedProfile p = new DecodedProfile();
        try (GZIPInputStream gz = new GZIPInputStream(in)) {
            CodedInputStream c = CodedInputStream.newInstance(gz);
            c.setSizeLimit(Integer.MAX_VALUE);
            List<byte[]> rawSamples = new ArrayList<>();
            for (int tag; (tag = c.readTag()) != 0; ) {
                switch (WireFormat.getTagFieldNumber(tag)) {
                    case 1 -> { long[] vt = pair(c.readBytes().newCodedInput(), 1, 2); p.sampleTypes.add(vt); }
                    case 2 -> rawSamples.add(c.readByteArray());
                    case 3 -> { c.readBytes(); p.mappings++; }
                    case 4 -> p.location(c.readBytes().newCodedInput());
                    case 5 -> p.function(c.readBytes().newCodedInput());
                    case 6 -> p.strings.add(c.readStringRequireUtf8());
                    case 13 -> p.comments.add(c.readInt64());
                    case 14 -> p.defaultSampleType = c.readInt64();
                    default -> c.skipField(tag);
                }
            }
            for (byte[] s : rawSamples) p.samples.add(p.sample(CodedInputStream.newInstance(s)));
        }
        return p;
    }

    String string(long i) { return strings.get((int) i); }

    /** Function names of a sample's stack, root first. */
    List<String> stack(Sample s) {
        List<String> out = new ArrayList<>();
        for (int i = s.locationIds().size() - 1; i >= 0; i--) {
            long[] loc = locations.get(s.locationIds().get(i));
            out.add(string(functions.get(loc[0])[0]));
        }
        return out;
    }

    private static long[] pair(CodedInputStream c, int a, int b) throws IOException {
        long[] r = new long[2];
        for (int tag; (tag = c.readTag()) != 0; ) {
            int f = WireFormat.getTagFieldNumber(tag);
            if (f == a) r[0] = c.readInt64();
            else if (f == b) r[1] = c.readInt64();
            else c.skipField(tag);
        }
        return r;
    }

    private void location(CodedInputStream c) throws IOException {
        long id = 0;
        long[] line = null;
        for (int tag; (tag = c.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> id = c.readUInt64();
                case 4 -> {
                    if (line != null) throw new IOException("bufq writes one line per location");
                    line = pair(c.readBytes().newCodedInput(), 1, 2);
                }
                default -> c.skipField(tag);
            }
        }
        locations.put(id, line);
    }

    private void function(CodedInputStream c) throws IOException {
        long id = 0, name = 0, file = 0;
        for (int tag; (tag = c.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> id = c.readUInt64();
                case 2 -> name = c.readInt64();
                case 4 -> file = c.readInt64();
                default -> c.skipField(tag);
            }
        }
        functions.put(id, new long[] {name, file});
    }

    private Sample sample(CodedInputStream c) throws IOException {
        List<Long> ids = new ArrayList<>(), values = new ArrayList<>();
        Map<String, String> str = new HashMap<>();
        Map<String, Long> num = new HashMap<>();
        for (int tag; (tag = c.readTag()) != 0; ) {
            int f = WireFormat.getTagFieldNumber(tag);
            boolean packed = WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED;
            if (f == 1 || f == 2) {
                List<Long> into = f == 1 ? ids : values;
                if (packed) {
                    int limit = c.pushLimit(c.readRawVarint32());
                    while (c.getBytesUntilLimit() > 0) into.add(c.readRawVarint64());
                    c.popLimit(limit);
                } else {
                    into.add(c.readRawVarint64());
                }
            } else if (f == 3) {
                CodedInputStream l = c.readBytes().newCodedInput();
                long key = 0, s = 0, n = 0;
                boolean isStr = false;
                for (int t; (t = l.readTag()) != 0; ) {
                    switch (WireFormat.getTagFieldNumber(t)) {
                        case 1 -> key = l.readInt64();
                        case 2 -> { s = l.readInt64(); isStr = true; }
                        case 3 -> n = l.readInt64();
                        default -> l.skipField(t);
                    }
                }
                if (isStr) str.put(string(key), string(s));
                else num.put(string(key), n);
            } else {
                c.skipField(tag);
            }
        }
        return new Sample(ids, values, str, num);
    }
}
