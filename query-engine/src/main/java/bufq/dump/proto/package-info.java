/**
 * The proto reader: an {@code .hlo.pb} (module and buffer assignment), a bare buffer-assignment
 * proto, a profile's {@code .xplane.pb} and a memory usage report proto, into
 * {@link bufq.model.HloModule}s. {@link bufq.dump.proto.ProtoSources} finds a dump's proto files
 * and makes their modules; {@link bufq.dump.proto.ProtoReader} reads one from bytes. The messages
 * are read field by field (one method per message), the values' positions and uses are found as
 * XLA's dataflow analysis finds them ({@code Dataflow}), and the live ranges from the schedule.
 */
package bufq.dump.proto;
