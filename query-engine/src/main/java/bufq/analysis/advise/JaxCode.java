package bufq.analysis.advise;

import bufq.analysis.fit.Changes;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Each change {@code advise} lists as the JAX code a user writes to make it: the line to type, not
 * the explanation (the finding says why and where). {@code layer}, {@code f}, {@code x} stand for the
 * user's own function and array.
 */
final class JaxCode {
    private JaxCode() {}

    /** Sharding an array over every device of the mesh. */
    static final String SHARD = "jax.jit(f, in_shardings=NamedSharding(mesh, P('x')))";

    /** The code of a rule's finding: the script's own for a rule a script wrote, else by the rule. */
    static String of(HloModule m, Advice a) {
        if (a.jax() != null) return a.jax();
        return switch (a.rule()) {
            case "shard" -> SHARD;
            case "regather" -> "jax.checkpoint(layer, policy=jax.checkpoint_policies.nothing_saveable)";
            case "big-buffer" -> "jax.lax.map(f, x.reshape(k, -1, ...))";
            case "activations", "idle" -> "jax.checkpoint(layer)";
            case ScanRematRule.NAME -> "jax.lax.scan(jax.checkpoint(layer), x, stacked_params)";
            case AttentionRule.NAME -> attention(m);
            case OffloadRule.NAME -> "jax.checkpoint(layer, policy=jax.checkpoint_policies"
                    + ".offload_dot_with_no_batch_dims('device', 'pinned_host'))";
            case RematPolicyRule.NAME -> "jax.checkpoint(layer, policy=jax.checkpoint_policies.checkpoint_dots)";
            case "donation" -> donate(m, a);
            case "f32" -> "x.astype(jnp.bfloat16)";
            case "padding" -> "x.reshape(...)  # minor dims a multiple of the tile (128)";
            default -> "see the finding (rule " + a.rule() + ")";
        };
    }

    /**
     * Attention a block of queries at a time, as each backend has it: Pallas's flash-attention kernel
     * on TPU (a kernel XLA cannot partition, so inside {@code shard_map}), cuDNN's fused attention on
     * GPU, a loop over query blocks elsewhere. {@code jax.nn.dot_product_attention}'s default XLA
     * implementation is none of these: a real TPU build with it kept every score array whole.
     */
    private static String attention(HloModule m) {
        return switch (m.info().backend() == null ? "" : m.info().backend()) {
            case "tpu" -> "jax.shard_map(pallas.ops.tpu.flash_attention.flash_attention, ...)(q, k, v)";
            case "gpu" -> "jax.nn.dot_product_attention(q, k, v, implementation='cudnn')";
            default -> "jax.lax.map(jax.checkpoint(attend), q.reshape(" + AttentionRule.CHUNKS + ", -1, ...))";
        };
    }

    /** {@code jax.jit(f, donate_argnums=(0, 1))} with the entry parameter numbers of the advice's values. */
    private static String donate(HloModule m, Advice a) {
        TreeSet<Integer> numbers = new TreeSet<>();
        for (HloValue v : a.values()) {
            BufferAllocation b = m.allocation(v.allocation());
            if (b != null && b.isParameter()) numbers.add(b.parameter());
        }
        if (numbers.isEmpty()) return "jax.jit(f, donate_argnums=...)";
        return "jax.jit(f, donate_argnums=(" + numbers.stream().map(String::valueOf).collect(Collectors.joining(", "))
                + (numbers.size() == 1 ? "," : "") + "))";
    }

    /** The code of one of {@code fit}'s changes: an array held beside the program, not kept or donated. */
    static String fit(Changes.Change c) {
        return c.kind().equals("donate") ? "jax.jit(f, donate_argnums=(n,))  # " + c.target() : "del x  # " + c.target();
    }
}
