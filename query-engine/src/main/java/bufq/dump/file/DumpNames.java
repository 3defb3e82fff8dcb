package bufq.dump.file;

import java.util.List;

/**
 * What a file-name stem says: {@code module_NNNN.<name>.<backend>_after_optimizations}. Flattened
 * copies ({@code owner_repo__path-module_0003.jit__threefry_seed.cpu}) carry the same parts anywhere
 * in the name, so the last {@code module_<digits>} is searched for.
 */
public final class DumpNames {
    private DumpNames() {}

    /** Index just after {@code module_<digits>}, or -1. */
    private static int[] moduleMarker(String stem) {
        int from = stem.length();
        while (true) {
            int i = stem.lastIndexOf("module_", from);
            if (i < 0) return null;
            int j = i + "module_".length();
            int k = j;
            while (k < stem.length() && Character.isDigit(stem.charAt(k))) k++;
            if (k > j && k - j <= 9) return new int[] {j, k};
            from = i - 1;
            if (from < 0) return null;
        }
    }

    /** The number after the last {@code module_}, or -1. */
    public static int number(String stem) {
        int[] m = moduleMarker(stem);
        return m == null ? -1 : Integer.parseInt(stem.substring(m[0], m[1]));
    }

    /** Endings of the files XLA writes beside a module's buffer assignment that are never dumps of it. */
    private static final List<String> OTHER_OUTPUTS = List.of(".ll", ".o", ".debug_options", ".dot",
            ".html", ".mlir", ".ptx", ".cubin", ".hsaco", ".json", ".pbtxt");

    /**
     * Whether a file name is one of XLA's other per-module dump files ({@code module_NNNN.NAME.ir-with-opt.ll},
     * {@code .obj-file....o}, {@code .debug_options}): named {@code module_NNNN.} and ending as no dump does.
     */
    public static boolean isOtherXlaOutput(String fileName) {
        if (number(fileName) < 0) return false;
        for (String end : OTHER_OUTPUTS) if (fileName.endsWith(end)) return true;
        return false;
    }

    /**
     * Files a JAX run leaves beside its dump that are never a dump: {@code memory_analysis.json}
     * (read as JAX's own figures, {@link MemoryAnalysisFile}), the run's {@code meta.json},
     * {@code run.log} and {@code exception.txt}. Passed over without a word unless they read as a dump.
     */
    private static final List<String> RUN_COMPANIONS = List.of(MemoryAnalysisFile.NAME, "meta.json", "run.log", "exception.txt");

    /** Whether a file name is one of {@link #RUN_COMPANIONS}. */
    public static boolean isRunCompanion(String fileName) {
        return RUN_COMPANIONS.contains(fileName);
    }

    /**
     * Whether a directory name is XLA:TPU's folder of one module's compile artefacts
     * ({@code module_0000.jit_step.cl_933746096}: compile options, MLIR, topology), which holds no
     * buffer assignment of its own.
     */
    public static boolean isModuleArtefactFolder(String dirName) {
        if (number(dirName) < 0) return false;
        int cl = dirName.lastIndexOf(".cl_");
        if (cl < 0 || cl + 4 >= dirName.length()) return false;
        for (int i = cl + 4; i < dirName.length(); i++) if (!Character.isDigit(dirName.charAt(i))) return false;
        return true;
    }

    /** Program name after {@code module_NNNN.}, or null. */
    public static String program(String stem) {
        int[] m = moduleMarker(stem);
        if (m == null || m[1] >= stem.length() || stem.charAt(m[1]) != '.') return null;
        int start = m[1] + 1;
        int dot = stem.indexOf('.', start);
        String p = dot < 0 ? stem.substring(start) : stem.substring(start, dot);
        return p.isEmpty() ? null : p;
    }

    /** {@code cpu}, {@code gpu}, {@code tpu} from the backend word, or null when the name has none. */
    public static String backend(String stem) {
        String s = stem;
        int a = s.indexOf("_after_optimizations");
        if (a >= 0) s = s.substring(0, a);
        int[] m = moduleMarker(s);
        String tail = m == null ? s : s.substring(m[1]);
        String p = program(s);
        if (p != null) tail = tail.substring(Math.min(tail.length(), 1 + p.length()));
        if (tail.endsWith(".cpu") || tail.equals("cpu") || tail.contains(".cpu.")) return "cpu";
        if (tail.endsWith("_gpu") || tail.endsWith(".gpu") || tail.contains("_gpu.")) return "gpu";
        if (tail.endsWith(".tpu") || tail.contains("_tpu")) return "tpu";
        return null;
    }
}
