/**
 * Writes a module's answers in the formats of the viewers people already use: a pprof profile of
 * the values live at one step ({@link bufq.export.PprofExport}) and a Chrome/Perfetto trace of the
 * whole schedule ({@link bufq.export.TraceExport}). Depends on {@code model} and {@code analysis};
 * nothing here knows the shell. Writers take a stream and never hold a whole file in memory.
 */
package bufq.export;
