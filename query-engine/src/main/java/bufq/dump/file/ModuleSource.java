package bufq.dump.file;

import bufq.model.DumpPart;
import bufq.model.HloModule;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

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
         * Parses {@code source}, with the parts in {@code now} read in the same pass and the others
         * left to be read on first use; a proto's loader reads everything at once.
         */
        HloModule load(ModuleSource source, Set<DumpPart> now) throws LoadException;
    }

    public ModuleSource {
        dumpFiles = List.copyOf(dumpFiles);
    }

    /** Display names of the module's files. */
    public List<String> files() {
        return dumpFiles.stream().map(DumpFile::name).toList();
    }

    /**
     * Parses the module, leaving each {@link DumpPart} to be read on first use (the module's
     * accessors read it when asked).
     */
    public HloModule load() throws LoadException {
        return load(EnumSet.noneOf(DumpPart.class));
    }

    /**
     * Parses the module with the parts in {@code now} (in the same parallel read); the others are
     * read on first use. A proto's loader reads everything at once.
     */
    public HloModule load(Set<DumpPart> now) throws LoadException {
        return loader.load(this, now);
    }
}
