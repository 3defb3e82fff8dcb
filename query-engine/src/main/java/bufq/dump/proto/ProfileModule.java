package bufq.dump.proto;

/**
 * One module inside a profile's XSpace: its name (the metadata event's, e.g. {@code jit_f(8)}),
 * program id (-1 when absent) and where its HloProto's bytes are in the file.
 */
record ProfileModule(String name, int number, int from, int length) {}
