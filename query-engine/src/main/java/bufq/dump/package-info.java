/**
 * The dump reader: turns XLA buffer-assignment dumps of every era into {@link bufq.model.HloModule}s.
 *
 * <p>Flow: {@link bufq.dump.DumpLoader#discover} groups files into modules by prefix (or splits
 * stdout frames) without parsing; a text module's {@link bufq.dump.file.ModuleSource#load} goes
 * to the text reader's one entry, {@link bufq.dump.text.TextReader}, which maps each file, cuts it at its section headers (and long sections again
 * at allocation lines and value blocks), parses the regions in parallel with the single-pass
 * scanners of {@code bufq.dump.text} (one class per section: allocations, used values, live range,
 * memory usage report), and the assembler joins them: values to their details by id and to their
 * live ranges by (name, canonical index), instructions to their time. Proto files are found and
 * read by {@code bufq.dump.proto} ({@link bufq.dump.proto.ProtoSources}, {@link bufq.dump.proto.ProtoReader}).
 *
 * <p>Below both readers, {@code bufq.dump.file}: what a dump's files are (kinds, names, gzip, the
 * module they make up) and the one error a load gives.
 *
 * <p>Errors: a malformed line is a located warning and loading goes on; text that is no dump is a
 * {@link bufq.dump.file.LoadException} with a one-line reason. Names and shapes are interned per module.
 */
package bufq.dump;
