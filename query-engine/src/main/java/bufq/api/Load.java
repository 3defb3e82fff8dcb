package bufq.api;

import bufq.dump.DumpLoader;
import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/** The engine's first answer to a client: which modules the named files and directories hold, each read when asked. */
public final class Load {
    private Load() {}

    /**
     * The modules {@code paths} name, found without parsing them, in the order they were named (a
     * directory in natural path order); the files a directory scan skipped are told to
     * {@code skipped}, one line per directory with why.
     *
     * @throws LoadException when a path names nothing or cannot be read
     */
    public static List<ModuleSource> discover(List<Path> paths, Consumer<String> skipped) throws LoadException {
        return DumpLoader.discover(paths, skipped);
    }
}
