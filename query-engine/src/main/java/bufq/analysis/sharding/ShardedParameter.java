package bufq.analysis.sharding;

/**
 * One entry parameter as the optimized HLO text declares it. Immutable.
 *
 * @param name     its instruction name ({@code param.6}): the name of its value in the dump
 * @param number   its parameter number
 * @param shape    its per-device shape text
 * @param sharding null when the text gives none (a module compiled for one device)
 * @param opName   its {@code op_name} (JAX writes the argument's pytree path), or null
 */
public record ShardedParameter(String name, int number, String shape, HloSharding sharding, String opName) {}
