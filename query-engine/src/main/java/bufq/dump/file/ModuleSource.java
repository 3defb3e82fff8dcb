package bufq.dump.file;

import bufq.model.LoadOptions;
import bufq.model.HloModule;

import java.util.List;

/**
 * One module found by {@code DumpLoader.discover}: its files, not yet parsed, and how they load.
 * {@link #load()} parses them (in parallel) into a {@link HloModule}.
 *
 * @param key    unique key: the directory and file prefix shared by the module's files
 * @param name   program name ({@code jit_step}), or the file stem when the name has none
 * @param number module number from {@code module_NNNN}, or -1
 * @param dumpFiles the files, buffer-assignment first
 * @param loader how the module loads: the text reader, or the proto reader for a module of a proto file
 */
public record ModuleSource(String key, String name, int number, List<DumpFile> dumpFiles, Loader loader) {
    /** Reads a module's files. */
    @FunctionalInterface
    public interface Loader {
        /**
         * Parses {@code source}, reading what {@code options} asks in the same pass and leaving the
         * rest to be read on first use; a proto's loader reads everything at once.
         */
        HloModule load(ModuleSource source, LoadOptions options) throws LoadException;
    }

    public ModuleSource {
        dumpFiles = List.copyOf(dumpFiles);
    }

    /** Display names of the module's files. */
    public List<String> files() {
        return dumpFiles.stream().map(DumpFile::name).toList();
    }

    /**
     * Parses the module, leaving the Used values section to be read on first use
     * ({@link LoadOptions#LAZY}).
     */
    public HloModule load() throws LoadException {
        return load(LoadOptions.LAZY);
    }

    /**
     * Parses the module, reading what {@code options} asks in the same parallel read; the rest is
     * read on first use. A proto's loader reads everything at once.
     */
    public HloModule load(LoadOptions options) throws LoadException {
        return loader.load(this, options);
    }
}
