package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.model.HloValue;
import bufq.analysis.sharding.Replication;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.List;

/**
 * Entry parameters of an SPMD module that are replicated, or cut fewer ways than the mesh has
 * devices, with their optimizer state ({@link Replication}): XLA's first check for an out-of-memory
 * sharded program. One finding per pytree leaf that holds at least {@link #SHARE} of the peak, and
 * one for all of them at once when there are several (a whole optimizer state left replicated).
 */
final class ShardRule implements Rule {
    /** A leaf counts from this share of the peak. */
    static final double SHARE = 0.01;

    static final String NAME = "shard";

    @Override public String name() { return NAME; }

    @Override public String description() {
        return "arrays of an SPMD module replicated or cut fewer ways than the mesh (HLO text beside the dump); saving if cut over every device";
    }

    @Override public List<Advice> find(Facts f) {
        Replication.Audit audit = Replication.of(f.module());
        List<Replication.Group> big = new ArrayList<>();
        for (Replication.Group g : audit.groups()) if (g.bytes() >= SHARE * f.peakBytes()) big.add(g);
        if (big.isEmpty()) return List.of();
        long n = audit.shardings().partitions();
        List<Advice> out = new ArrayList<>();
        if (big.size() > 1) {
            List<HloValue> vs = new ArrayList<>();
            long bytes = 0, sharded = 0;
            List<String> leaves = new ArrayList<>();
            for (Replication.Group g : big) {
                for (Replication.Member x : g.members()) vs.add(x.value());
                bytes += g.bytes();
                sharded += g.bytesSharded();
                leaves.add(g.leaf());
            }
            vs.sort((a, b) -> Long.compare(b.size(), a.size()));
            out.add(new Advice(name(), String.format("shard %d leaves and their optimizer state over the mesh (%d devices): %s;"
                            + " %s per device now, %s cut %d ways", big.size(), n, list(leaves), Units.human(bytes), Units.human(sharded), n),
                    ShardingAudit.edits(big), vs, 0));
        }
        for (Replication.Group g : big) {
            List<HloValue> vs = new ArrayList<>();
            for (Replication.Member x : g.members()) vs.add(x.value());
            out.add(new Advice(name(), String.format("shard %s over the mesh (%d devices): %s, %s per device; %s cut %d ways"
                            + " (a PartitionSpec naming a mesh axis on a dimension it divides)", what(f, g), n, g.now(),
                    Units.human(g.bytes()), Units.human(g.bytesSharded()), n), ShardingAudit.edits(g), vs, 0));
        }
        return out;
    }

    /** {@code params['embed'] and its optimizer state}, or the optimizer state's own paths when the parameter is cut already. */
    private static String what(Facts f, Replication.Group g) {
        List<String> params = new ArrayList<>(), state = new ArrayList<>();
        for (Replication.Member x : g.members()) ("optimizer".equals(f.category(x.value())) ? state : params).add(x.path());
        if (params.isEmpty()) return "the optimizer state " + list(state);
        if (state.isEmpty()) return list(params);
        return list(params) + " and its optimizer state (" + list(state) + ")";
    }

    private static String list(List<String> xs) {
        if (xs.size() <= 3) return String.join(", ", xs);
        return String.join(", ", xs.subList(0, 3)) + " and " + (xs.size() - 3) + " more";
    }
}
