package bufq.dump;

import java.util.List;

/**
 * What the text reader needs of a module found on disk: its key, name, number and files. A
 * {@link ModuleSource} is one; the reader depends on this and not on the source that calls it.
 */
interface ModuleFiles {
    String key();

    String name();

    int number();

    List<DumpFile> dumpFiles();
}
