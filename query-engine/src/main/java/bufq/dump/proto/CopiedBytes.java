package bufq.dump.proto;

import bufq.dump.proto.Wire.LongBuilder;

/**
 * Spans of a proto noted as it is read, copied into one array of exactly their size at the end: the
 * bytes a parser keeps for reading later (a module's OpMetadata, an assignment's event names).
 */
final class CopiedBytes {
    private final LongBuilder spans = new LongBuilder();   // start << 32 | length
    private int size;

    /** Notes {@code length} bytes at {@code start}; returns where they will be in {@link #bytes}. */
    int add(int start, int length) {
        spans.add((long) start << 32 | length);
        int at = size;
        size = Math.addExact(size, length);
        return at;
    }

    byte[] bytes(byte[] source) {
        byte[] out = new byte[size];
        int at = 0;
        for (int i = 0; i < spans.size(); i++) {
            long sp = spans.get(i);
            int n = (int) sp;
            System.arraycopy(source, (int) (sp >>> 32), out, at, n);
            at += n;
        }
        return out;
    }
}
