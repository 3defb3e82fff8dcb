package bufq.dump.proto;

/**
 * The generated protos that made the proto reader's dataflow super-linear: each built
 * by {@link ProtoGen}, sized by its arguments so the fuzz test can shrink or grow them.
 */
public final class HostileProtos {
    private HostileProtos() {}

    /** {@code outer} tuples of {@code inner} parameters each, gathered by one tuple (the root), each taken out again. */
    public static byte[] nestedTuples(int outer, int inner) {
        ProtoGen g = new ProtoGen();
        byte[] leaf = ProtoGen.array(1);
        long[] params = new long[inner];
        byte[][] leaves = new byte[inner][];
        for (int k = 0; k < inner; k++) {
            params[k] = g.parameter("p" + k, leaf, k);
            leaves[k] = leaf;
            g.buffer(params[k], 4);
        }
        byte[] innerShape = ProtoGen.tuple(leaves);
        long[] tuples = new long[outer];
        byte[][] inners = new byte[outer][];
        for (int t = 0; t < outer; t++) {
            tuples[t] = g.add("t" + t, "tuple", innerShape, params);
            inners[t] = innerShape;
        }
        long root = g.add("root", "tuple", ProtoGen.tuple(inners), tuples);
        // Each inner tuple taken back out of the outer one: the reads of a wide shape's subtrees.
        for (int t = 0; t < outer; t++) g.gte("g" + t, innerShape, root, t);
        g.root(root);
        return g.bytes();
    }

    /** One instruction reading {@code width} parameters (a custom call), its output the root. */
    public static byte[] wideOperands(int width) {
        ProtoGen g = new ProtoGen();
        byte[] leaf = ProtoGen.array(1);
        long[] params = new long[width];
        for (int k = 0; k < width; k++) {
            params[k] = g.parameter("p" + k, leaf, k);
            if (k < 16) g.buffer(params[k], 4);
        }
        long call = g.add("wide", "custom-call", leaf, params);
        g.buffer(call, 4);
        return g.bytes();
    }

    /**
     * A parameter and {@code length - 1} bitcasts, each of the one before: the parameter's value is
     * at every bitcast and used by each, {@code length - 1} uses. {@code reverse} writes users before
     * their operands (the schedule stays in order).
     */
    public static byte[] bitcastChain(int length, boolean reverse) {
        ProtoGen g = new ProtoGen();
        byte[] leaf = ProtoGen.array(4);
        long prev = g.parameter("p", leaf, 0);
        g.buffer(prev, 16);
        for (int k = 1; k < length; k++) prev = g.add("b" + k, "bitcast", leaf, prev);
        g.root(prev);
        if (reverse) g.reversed();
        return g.bytes();
    }
}
