/**
 * What a dump's files are, for both readers ({@code bufq.dump} for text, {@code bufq.dump.proto}):
 * a file of a module ({@link bufq.dump.file.DumpFile}) and its kind by name
 * ({@link bufq.dump.file.FileKind}), what a file-name stem says ({@link bufq.dump.file.DumpNames}),
 * gzip found by content and inflated under a bound ({@link bufq.dump.file.Gunzip}), a module found
 * and how it loads ({@link bufq.dump.file.ModuleSource}), and the one error a load gives
 * ({@link bufq.dump.file.LoadException}). Knows no section of a dump and no proto message.
 */
package bufq.dump.file;
