package bufq.dump.proto;

import bufq.dump.file.DumpFile;
import bufq.dump.file.DumpNames;
import bufq.dump.file.FileKind;
import bufq.dump.file.Gunzip;
import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.model.HloModule;
import bufq.model.LoadWarning;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipException;

/**
 * The modules of proto files ({@code .pb}, {@code .pb.gz}) for {@code bufq.dump.DumpLoader}: an
 * {@code .hlo.pb} or a bare buffer-assignment proto is one module, read when loaded; a profile's
 * {@code .xplane.pb} is read when found and gives one module per HloProto it carries. The kind is
 * judged by content. Errors become {@link LoadException}s naming the byte offset and message path.
 */
public final class ProtoSources {
    private ProtoSources() {}

    private static final String REPORT = "-memory-usage-report.pb";

    /** A {@code .pb} or {@code .pb.gz} name. */
    public static boolean isProto(String fileName) {
        return FileKind.stripGz(fileName).endsWith(".pb");
    }

    /**
     * Whether a file of another name is a proto all the same (a dump saved as {@code mystery.bin}):
     * its first 4 KiB (inflated when gzip) are binary, as no text dump is, and start as one of the
     * protos bufq reads. A bounded cost: the head only; a file this passes may still fail to load,
     * with the proto reader's byte offset and message path.
     */
    public static boolean sniffsAsProto(Path read) {
        byte[] head;
        try {
            head = head(read, read.toString());
        } catch (LoadException e) {
            return false;
        }
        return isBinary(head) && ProtoReader.sniff(head, head.length) != null;
    }

    /** A NUL or a control character no text dump holds: text dumps are UTF-8 lines. */
    private static boolean isBinary(byte[] head) {
        for (byte b : head) if (b >= 0 && b < 0x20 && b != '\n' && b != '\r' && b != '\t' && b != '\f') return true;
        return false;
    }

    /**
     * Whether a directory walk reads the file as a module of its own: every proto but memory usage
     * reports (read with their module's {@code .hlo.pb}, or alone when it is missing) and modules
     * before optimizations (no buffer assignment yet).
     */
    public static boolean walkReads(String fileName) {
        String n = FileKind.stripGz(fileName);
        return n.endsWith(".pb") && !n.endsWith(REPORT) && !n.contains("before_optimizations");
    }

    /**
     * A bare {@code xla.BufferAssignmentProto} (memory_analysis()'s bytes, {@code ma-buffer-assignment.pb}):
     * no dump's module name, and its head reads as an assignment. Beside the one module it belongs
     * to, it is that module's assignment again, with less in it (no names, shapes or schedule).
     */
    public static boolean isBareAssignment(Path read) {
        String n = FileKind.stripGz(read.getFileName().toString());
        if (!n.endsWith(".pb") || n.endsWith(".hlo.pb") || n.endsWith(REPORT) || n.endsWith(".xplane.pb")) return false;
        if (DumpNames.program(textPrefix(n)) != null) return false;
        try {
            byte[] head = head(read, read.toString());
            return ProtoReader.sniff(head, head.length) == ProtoReader.Kind.BUFFER_ASSIGNMENT;
        } catch (LoadException e) {
            return false;
        }
    }

    /** A memory usage report proto: read with its module's .hlo.pb (or text set) beside it, else alone. */
    public static boolean isReport(String fileName) {
        return FileKind.stripGz(fileName).endsWith(REPORT);
    }

    /** Why a directory walk passes over a proto ({@link #walkReads} is false and it is not a report). */
    public static String whyWalkSkips(String fileName) {
        return "a module before optimizations: no buffer assignment yet";
    }

    /** The module's {@code .hlo.pb} (or {@code .hlo.pb.gz}) beside a memory usage report proto, or null. */
    public static Path moduleOfReport(Path report) {
        return sibling(report, ".hlo.pb");
    }

    /** The memory usage report proto (or its {@code .gz}) beside a module's {@code .hlo.pb}, or null. */
    static Path reportOfModule(Path hloPb) {
        String n = FileKind.stripGz(hloPb.getFileName().toString());
        return n.endsWith(".hlo.pb") ? sibling(hloPb, REPORT) : null;
    }

    private static Path sibling(Path file, String suffix) {
        Path dir = file.getParent();
        String stem = textPrefix(file.getFileName().toString());
        for (String name : new String[] {stem + suffix, stem + suffix + ".gz"}) {
            Path p = dir == null ? Path.of(name) : dir.resolve(name);
            if (Files.isRegularFile(p)) return p;
        }
        return null;
    }

    /** The stem a text dump of the same module would have: {@code module_0000.jit_f.cpu_after_optimizations}. */
    public static String textPrefix(String fileName) {
        String n = FileKind.stripGz(fileName);
        if (n.endsWith(".hlo.pb")) return n.substring(0, n.length() - ".hlo.pb".length());
        if (n.endsWith(REPORT)) return n.substring(0, n.length() - REPORT.length());
        return n.endsWith(".pb") ? n.substring(0, n.length() - ".pb".length()) : n;   // a proto under another name: all of it
    }

    /** The modules of the proto file at {@code read}, named {@code shown} in every message. */
    public static List<ModuleSource> sources(Path read, String shown) throws LoadException {
        String fileName = read.getFileName().toString();
        if (isReport(fileName)) {
            // Read as the report part of its module's .hlo.pb when that is beside it; else alone, as a
            // text report alone is (the totals of each memory space, no allocations or values).
            Path module = moduleOfReport(read);
            if (module != null) return sources(module, shownSibling(read, shown, module));
        }
        String key = read.toAbsolutePath().normalize().toString();
        String stem = textPrefix(fileName);
        String program = DumpNames.program(stem);
        // Not a dump's name (memory_analysis()'s bytes saved as ma-buffer-assignment.pb): the proto's own
        // module name when it has one, else its directory's name, which tells modules apart better than the file's.
        Path parent = read.toAbsolutePath().normalize().getParent();
        String dirName = parent == null || parent.getFileName() == null ? null : parent.getFileName().toString();
        String name = program != null ? program : dirName != null ? dirName : stem;
        int number = DumpNames.number(stem);
        String nameBackend = DumpNames.backend(stem);
        String backend = nameBackend == null ? "unknown" : nameBackend;
        if (isReport(fileName)) {
            DumpFile f = DumpFile.of(read, shown);
            return List.of(new ModuleSource(key, name, number, List.of(f),
                    (s, now) -> ProtoReader.reportAlone(report(read, shown), name, number, backend)));
        }
        byte[] head = head(read, shown);
        ProtoReader.Kind guess = ProtoReader.sniff(head, head.length);
        if (guess != ProtoReader.Kind.XSPACE) {
            DumpFile f = DumpFile.of(read, shown);
            Path reportPath = reportOfModule(read);
            String reportShown = reportPath == null ? null : shownSibling(read, shown, reportPath);
            List<DumpFile> files = reportPath == null ? List.of(f) : List.of(f, DumpFile.of(reportPath, reportShown));
            return List.of(new ModuleSource(key, name, number, files, (s, now) -> {
                // A bad report beside a good module is skipped with a warning, as a bad text report is.
                UsageReport report = null;
                LoadWarning skippedReport = null;
                if (reportPath != null) {
                    try {
                        report = report(reportPath, reportShown);
                    } catch (LoadException e) {
                        if (Thread.currentThread().isInterrupted()) throw e;
                        skippedReport = new LoadWarning(reportShown, e.line(), e.reason() + "; file skipped, the module is read from its other files");
                    }
                }
                byte[] bytes = bytes(read, shown);
                HloModule m;
                try {
                    m = ProtoReader.load(bytes, 0, bytes.length, 0, shown, name, number, backend, false, report);
                } catch (ProtoException e) {
                    throw new LoadException(shown, e.isCancelled() ? "cancelled" : e.getMessage());
                }
                if (skippedReport == null) return m;
                List<LoadWarning> warnings = new ArrayList<>(m.warnings().size() + 1);
                warnings.add(skippedReport);
                warnings.addAll(m.warnings());
                return m.withWarnings(warnings, m.warningCount() + 1);
            }));
        }
        byte[] bytes = bytes(read, shown);
        List<ProfileModule> modules;
        String profileBackend;
        String[] versions;
        try {
            modules = ProtoReader.xspaceModules(bytes);
            versions = ProtoReader.xspaceVersions(bytes);
            profileBackend = nameBackend != null ? nameBackend : ProtoReader.xspaceBackend(bytes);
        } catch (ProtoException e) {
            throw new LoadException(shown, e.getMessage());
        }
        List<ModuleSource> out = new ArrayList<>(modules.size());
        for (ProfileModule m : modules) {
            // Named apart (as a frame of a log is), so each module of the file is its own source.
            String part = shown + "#" + m.name();
            DumpFile f = new DumpFile(part, FileKind.OTHER, null, null, shown, 1);
            String moduleName = m.name().replaceFirst("\\(\\d+\\)$", "");
            out.add(new ModuleSource(key + "#" + m.name(), moduleName, m.number(), List.of(f), (s, now) -> {
                try {
                    return ProtoReader.load(bytes, m.from(), m.length(), m.from(), part, moduleName, m.number(), profileBackend, true)
                            .withVersions(versions[0], versions[1]);
                } catch (ProtoException e) {
                    throw new LoadException(part, e.isCancelled() ? "cancelled" : e.getMessage());
                }
            }));
        }
        return out;
    }

    /** A memory usage report proto's totals by colour. */
    private static UsageReport report(Path read, String shown) throws LoadException {
        byte[] bytes = bytes(read, shown);
        try {
            return new UsageReport(shown, ProtoReader.reportTotals(bytes));
        } catch (ProtoException e) {
            throw new LoadException(shown, e.getMessage());
        }
    }

    /** {@code sibling} named as {@code file} was ({@code shown}): in the same directory as given. */
    private static String shownSibling(Path file, String shown, Path sibling) {
        Path given = Path.of(shown).getParent();
        return given == null ? sibling.getFileName().toString() : given.resolve(sibling.getFileName()).toString();
    }

    /** The first 4 KiB (inflated), enough to judge the kind. */
    private static byte[] head(Path read, String shown) throws LoadException {
        try {
            return Gunzip.head(read, 1 << 12);
        } catch (NoSuchFileException e) {
            throw new LoadException(shown, "no such file");
        } catch (ZipException e) {
            throw new LoadException(shown, "not a valid gzip file (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new LoadException(shown, "cannot read: " + e.getMessage());
        }
    }

    /** The whole file, inflated when {@code .gz}; a cut-off {@code .gz} keeps what it inflated (the parse then says where it ends). */
    static byte[] bytes(Path read, String shown) throws LoadException {
        // Under the same bound on expansion as a text dump's .gz: a proto bomb is refused as early.
        if (Gunzip.isGzip(read)) return Gunzip.inflate(read, shown, "bytes", (head, n, whole) -> {}).bytes();
        try {
            return Files.readAllBytes(read);
        } catch (NoSuchFileException e) {
            throw new LoadException(shown, "no such file");
        } catch (OutOfMemoryError e) {
            throw new LoadException(shown, "the proto does not fit in memory");
        } catch (IOException e) {
            throw new LoadException(shown, "cannot read: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        }
    }
}
