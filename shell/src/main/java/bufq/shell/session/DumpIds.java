package bufq.shell.session;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The number XLA gave a module in its dump ({@code module_0004.jit_f...} files) or in a profile
 * capture (the program id in {@code profile.xplane.pb#jit_f(4)}), written as the dump writes it
 * ({@code 0004}): what tells apart three {@code jit_broadcast_in_dim} of one directory.
 */
public final class DumpIds {
    private DumpIds() {}

    /** A file name (the path's last name) of a module's dump: {@code module_0004.jit_f...}. */
    private static final Pattern FILE = Pattern.compile("module_(\\d+)\\..*");
    private static final Pattern CAPTURE = Pattern.compile(".*#.*\\((\\d+)\\)");

    /** The module number of the first of {@code files} that names one, or null. */
    public static String of(List<String> files) {
        for (String f : files) {
            // the name after the last separator: a regex over the whole path backtracked along it
            Matcher m = FILE.matcher(f.substring(Math.max(f.lastIndexOf('/'), f.lastIndexOf('\\')) + 1));
            if (m.matches()) return m.group(1);
            m = CAPTURE.matcher(f);
            if (m.matches()) {
                String id = m.group(1);
                return id.length() >= 4 ? id : "0".repeat(4 - id.length()) + id;
            }
        }
        return null;
    }

    /** True when {@code files} come from a profile capture ({@code .xplane.pb}). */
    public static boolean capture(List<String> files) {
        for (String f : files) if (f.contains(".xplane.pb")) return true;
        return false;
    }
}
