package bufq.dump;

import bufq.model.DumpPart;
import bufq.model.HloModule;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One module found by {@link DumpLoader#discover}: its files, not yet parsed. {@link #load()} parses
 * them (in parallel) into a {@link HloModule}.
 *
 * @param key    unique key: the directory and file prefix shared by the module's files
 * @param name   program name ({@code jit_step}), or the file stem when the name has none
 * @param number module number from {@code module_NNNN}, or -1
 * @param dumpFiles the files, buffer-assignment first
 * @param loader how a module of a proto file loads ({@link ProtoSources}); null for text dumps
 */
public record ModuleSource(String key, String name, int number, List<DumpFile> dumpFiles, Loader loader)
        implements ModuleFiles {
    /** Loads a module that is not a text dump. */
    @FunctionalInterface
    public interface Loader {
        HloModule load() throws LoadException;
    }

    public ModuleSource {
        dumpFiles = List.copyOf(dumpFiles);
    }

    /** A text dump's module. */
    public ModuleSource(String key, String name, int number, List<DumpFile> dumpFiles) {
        this(key, name, number, dumpFiles, null);
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
        return loader != null ? loader.load() : ModuleReader.read(this, now);
    }
}
