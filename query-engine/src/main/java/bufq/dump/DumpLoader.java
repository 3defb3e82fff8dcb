package bufq.dump;

import bufq.dump.text.TextReader;
import bufq.dump.file.DumpFile;
import bufq.dump.file.DumpNames;
import bufq.dump.file.FileKind;
import bufq.dump.file.Gunzip;
import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.dump.proto.ProtoSources;
import bufq.model.HloModule;
import bufq.table.NaturalOrder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Entry point of the reader. PATH rules: a dump file joins its siblings (same prefix, same
 * directory: {@code -buffer-assignment.txt}, {@code -buffer-assignment-values.txt},
 * {@code -live-range.txt}, {@code -memory-usage-report.txt}, each possibly {@code .gz}); a
 * directory gives every module under it; any other file is read as stdout-framed text or as a
 * single dump judged by its content. Proto files ({@code .hlo.pb}, a bare buffer-assignment
 * {@code .pb}, a profile's {@code .xplane.pb}, each possibly {@code .gz}) are read by
 * {@link ProtoSources}; in a directory, a module whose text set is there is read from the text.
 */
public final class DumpLoader {
    private DumpLoader() {}

    /** Thrown out of a directory walk when the thread is interrupted. */
    private static final class DiscoveryCancelled extends RuntimeException {
        DiscoveryCancelled() { super(null, null, false, false); }
    }

    /** As {@link #discover(List, Consumer)}, dropping the list of files a directory scan skipped. */
    public static List<ModuleSource> discover(List<Path> paths) throws LoadException {
        return discover(paths, skipped -> {});
    }

    /**
     * Finds the modules named by {@code paths} without parsing them. Relative paths are the JVM's
     * working directory's; every name produced (file names, origins, keys, warnings, errors) is
     * spelled as the path was given. A directory is walked in natural path order ({@code pairs/base}
     * before {@code pairs/base-remat}, {@code module_2} before {@code module_10}); every file in it
     * that would load when named loads, and the files it skips are told to {@code skipped} in one
     * line per directory, with why.
     */
    public static List<ModuleSource> discover(List<Path> paths, Consumer<String> skipped) throws LoadException {
        Map<String, List<DumpFile>> groups = new LinkedHashMap<>();
        // Modules of proto files, by file: loaded after the text groups (ProtoSources).
        Map<String, List<ModuleSource>> protos = new LinkedHashMap<>();
        for (Path p : paths) {
            // Path.of("") is the working directory: an empty argument (an unset shell variable) would
            // otherwise load every dump below it.
            if (p.toString().isEmpty()) throw new LoadException("''", "empty path, expected a dump file or directory");
            if (!Files.exists(p)) throw new LoadException(p.toString(), "no such file or directory");
            if (Files.isDirectory(p)) {
                List<Path> files;
                try (Stream<Path> walk = Files.walk(p)) {
                    files = walk.peek(f -> {
                                // A huge or slow directory: Ctrl-C in the REPL interrupts the walk.
                                if (Thread.currentThread().isInterrupted()) throw new DiscoveryCancelled();
                            })
                            // A FIFO or device named as a dump file is kept, so the load names it (it is never read).
                            .filter(f -> Files.isRegularFile(f) || (!Files.isDirectory(f) && FileKind.of(f.getFileName().toString()) != FileKind.OTHER))
                            .toList();
                    files = naturalOrder(p, files);
                } catch (IOException | UncheckedIOException e) {
                    throw new LoadException(p.toString(), "cannot read directory: " + e.getMessage());
                } catch (DiscoveryCancelled e) {
                    throw new LoadException(p.toString(), "cancelled");
                }
                List<String> passed = new ArrayList<>();
                int byproducts = 0;
                List<Path> protoFiles = new ArrayList<>();
                Path root = realPath(p);
                for (Path f : files) {
                    String n = f.getFileName().toString();
                    // A link out of the directory is not followed: a dump folder from a bug report may
                    // link to a file of this machine's (a key), which must not be read, nor quoted.
                    if (Files.isSymbolicLink(f) && (root == null || !realPath(f).startsWith(root))) {
                        passed.add(p.relativize(f) + " (a link out of the directory, not followed)");
                        continue;
                    }
                    if (inArtefactFolder(p, f)) {
                        // XLA:TPU's per-module folder (compile options, MLIR, topology): no dump in it.
                        byproducts++;
                    } else if (ProtoSources.isProto(n)) {
                        if (ProtoSources.walkReads(n) || ProtoSources.isReport(n)) protoFiles.add(f);
                        else passed.add(p.relativize(f) + " (" + ProtoSources.whyWalkSkips(n) + ")");
                    } else if (FileKind.of(n) != FileKind.OTHER) {
                        add(groups, f);
                    } else if (DumpNames.isOtherXlaOutput(n)) {
                        // XLA's other dump files (LLVM IR, objects, debug options) sit beside every
                        // buffer assignment: passed over without a word, as the HLO text below is.
                        byproducts++;
                    } else {
                        String why = sniff(f, groups);
                        if (why == null) continue;
                        if (why.startsWith(HLO_TEXT) && DumpNames.number(n) >= 0 || DumpNames.isRunCompanion(n)) byproducts++;
                        else passed.add(p.relativize(f) + " (" + why + ")");
                    }
                }
                Set<String> protoModules = new HashSet<>();
                for (Path f : protoFiles) {
                    Path abs = f.toAbsolutePath().normalize();
                    if (!ProtoSources.isReport(abs.getFileName().toString())) protoModules.add(abs.getParent() + "/" + ProtoSources.textPrefix(abs.getFileName().toString()));
                }
                for (Path f : protoFiles) {
                    // A module dumped both ways is read from its text set, which holds the dump's own peak;
                    // a memory usage report proto is read through its module's .hlo.pb or text set.
                    Path abs = f.toAbsolutePath().normalize();
                    String module = abs.getParent() + "/" + ProtoSources.textPrefix(abs.getFileName().toString());
                    if (groups.containsKey(module)) continue;
                    // Read by its module's .hlo.pb; alone, it is a module of its own (as a text report alone is).
                    if (ProtoSources.isReport(abs.getFileName().toString()) && protoModules.contains(module)) continue;
                    // A bare assignment beside the one module it belongs to joins it (one program
                    // gave two modules, jit_f and a nameless one).
                    String joins = onlyModuleBeside(abs, groups.keySet(), protoModules);
                    if (joins != null && ProtoSources.isBareAssignment(f)) continue;   // read as that module, silently as a report .pb is
                    if (!protos.containsKey(abs.toString())) protos.put(abs.toString(), ProtoSources.sources(f, f.toString()));
                }
                String skips = passed.isEmpty() ? null : skippedLine(passed);
                // Every file not passed over was taken (a module named twice loads once, but it was found).
                if (passed.size() + byproducts == files.size()) {
                    throw new LoadException(p.toString(), "no buffer-assignment dumps in " + p + (skips == null ? "" : "; " + skips)
                            + (byproducts == 0 ? "" : "; " + byproducts + " of XLA's other dump files (HLO text, LLVM IR, objects) passed over"));
                }
                if (skips != null) skipped.accept(p + ": " + skips);
            } else {
                String fileName = p.getFileName().toString();
                // Any other name: a binary head that reads as a proto is one (the kind is judged by content).
                // A memory usage report proto named alone is read with its module, as a text report is:
                // through the .hlo.pb beside it (ProtoSources), else the text set beside it, else alone.
                boolean reportOfTextSet = ProtoSources.isReport(fileName) && ProtoSources.moduleOfReport(p) == null
                        && !textSet(p, ProtoSources.textPrefix(fileName)).isEmpty();
                if (!reportOfTextSet && (ProtoSources.isProto(fileName)
                        || FileKind.of(fileName) == FileKind.OTHER && ProtoSources.sniffsAsProto(p))) {
                    String abs = p.toAbsolutePath().normalize().toString();
                    if (!protos.containsKey(abs)) protos.put(abs, ProtoSources.sources(p, p.toString()));
                } else if (reportOfTextSet || FileKind.of(fileName) != FileKind.OTHER) {
                    String set = reportOfTextSet ? ProtoSources.textPrefix(fileName) : FileKind.setName(fileName);
                    Path given = p.getParent();
                    for (Path s : textSet(p, set)) {
                        Path shown = given == null ? s.getFileName() : given.resolve(s.getFileName());
                        add(groups, shown);
                    }
                } else {
                    String text = TextReader.readText(DumpFile.of(p, p.toString()));
                    if (Frames.isFramed(text)) {
                        addFrames(groups, p.toString(), text);
                    } else {
                        TextReader.checkLooksLikeDump(p.toString(), text);
                        String key = p.toString();
                        groups.computeIfAbsent(key, k -> new ArrayList<>())
                                .add(new DumpFile(p.toString(), FileKind.OTHER, null, text, p.toString(), 1));
                    }
                }
            }
        }
        List<ModuleSource> out = new ArrayList<>();
        for (Map.Entry<String, List<DumpFile>> e : groups.entrySet()) out.add(source(e.getKey(), e.getValue()));
        for (List<ModuleSource> l : protos.values()) out.addAll(l);
        return out;
    }

    /** Whether {@code f}, found under {@code root}, is inside an XLA:TPU module artefact folder. */
    private static boolean inArtefactFolder(Path root, Path f) {
        Path below = root.relativize(f);
        for (int i = 0; i < below.getNameCount() - 1; i++)
            if (DumpNames.isModuleArtefactFolder(below.getName(i).toString())) return true;
        return false;
    }

    /** The file-name prefix of the one module in {@code file}'s directory (a text set or an .hlo.pb), or null when none or several. */
    private static String onlyModuleBeside(Path file, Set<String> textSets, Set<String> protoModules) {
        String dir = file.getParent() + "/";
        Set<String> beside = new HashSet<>();
        for (String k : textSets) if (k.startsWith(dir) && k.indexOf('/', dir.length()) < 0) beside.add(k);
        for (String k : protoModules) {
            if (!k.startsWith(dir) || k.indexOf('/', dir.length()) >= 0 || k.equals(dir + ProtoSources.textPrefix(file.getFileName().toString()))) continue;
            beside.add(k);
        }
        if (beside.size() != 1) return null;
        String only = beside.iterator().next().substring(dir.length());
        String program = DumpNames.program(only);
        return program != null ? program : only;
    }

    /** Discovers and loads every module. */
    public static List<HloModule> load(List<Path> paths) throws LoadException {
        List<ModuleSource> sources = discover(paths);
        if (sources.size() == 1) return List.of(sources.get(0).load());
        // Many small modules (a dump directory): load them side by side; report the first failure
        // in discovery order so the message does not depend on thread timing.
        List<Object> results = sources.parallelStream().map(s -> {
            try {
                return (Object) s.load();
            } catch (LoadException e) {
                return e;
            }
        }).toList();
        List<HloModule> out = new ArrayList<>(results.size());
        for (Object r : results) {
            if (r instanceof LoadException e) throw e;
            out.add((HloModule) r);
        }
        return out;
    }

    /**
     * Loads one module from text held in memory (tests, fuzzers). The name decides the kind as a
     * file name would; of framed text, the first module's frames are loaded.
     */
    public static HloModule loadText(String fileName, String text) throws LoadException {
        List<DumpFile> files;
        if (Frames.isFramed(text)) {
            // The frames of the first module in the text.
            List<DumpFile> frames = Frames.split(fileName, text);
            String first = FileKind.setName(frames.get(0).name());
            files = frames.stream().filter(f -> FileKind.setName(f.name()).equals(first)).toList();
        } else {
            if (FileKind.of(fileName) == FileKind.OTHER) TextReader.checkLooksLikeDump(fileName, text);
            files = List.of(DumpFile.inMemory(fileName, text));
        }
        return source(FileKind.prefix(fileName), files).load();
    }

    /** Paths compared name by name, each in {@link NaturalOrder}: {@code a/b} before {@code a-c/d}, {@code m2} before {@code m10}. */
    static final Comparator<Path> NATURAL_PATH_ORDER = (a, b) -> {
        for (int i = 0, n = Math.min(a.getNameCount(), b.getNameCount()); i < n; i++) {
            int c = NaturalOrder.INSTANCE.compare(a.getName(i).toString(), b.getName(i).toString());
            if (c != 0) return c;
        }
        return Integer.compare(a.getNameCount(), b.getNameCount());
    };

    /**
     * The files found under {@code dir} in {@link #NATURAL_PATH_ORDER}, each path's names below
     * {@code dir} spelled once: the comparator alone made two strings per name of the whole path
     * per comparison, 45% of the CPU of listing a directory of 8,000 files.
     */
    private static List<Path> naturalOrder(Path dir, List<Path> paths) {
        record Keyed(Path path, String[] names) {}
        List<Keyed> keyed = new ArrayList<>(paths.size());
        for (Path f : paths) {
            Path below = dir.relativize(f);
            String[] names = new String[below.getNameCount()];
            for (int i = 0; i < names.length; i++) names[i] = below.getName(i).toString();
            keyed.add(new Keyed(f, names));
        }
        keyed.sort((a, b) -> {
            for (int i = 0, n = Math.min(a.names.length, b.names.length); i < n; i++) {
                int c = NaturalOrder.INSTANCE.compare(a.names[i], b.names[i]);
                if (c != 0) return c;
            }
            return Integer.compare(a.names.length, b.names.length);
        });
        List<Path> out = new ArrayList<>(keyed.size());
        for (Keyed k : keyed) out.add(k.path);
        return out;
    }

    /** The start of the verdict on HLO text ({@code TextReader.checkLooksLikeDump}). */
    private static final String HLO_TEXT = "HLO text";

    /** How many skipped files the one line per directory names; the rest are counted. */
    static final int SKIPPED_NAMED = 3;

    private static String skippedLine(List<String> passed) {
        StringBuilder b = new StringBuilder("skipped ").append(passed.size()).append(passed.size() == 1 ? " file: " : " files: ");
        for (int i = 0; i < Math.min(SKIPPED_NAMED, passed.size()); i++) b.append(i == 0 ? "" : ", ").append(passed.get(i));
        if (passed.size() > SKIPPED_NAMED) b.append(" and ").append(passed.size() - SKIPPED_NAMED).append(" more");
        return b.toString();
    }

    /** Bytes of a file's head judged by {@link #sniff}: a framed log's first frame must begin in them. */
    static final int SNIFF_BYTES = 64 << 10;

    /**
     * Adds a file of a directory whose name says no kind when its content would load when named (a
     * renamed or collected dump, a memory usage report, a stdout log with framed dumps); returns
     * null then, else why it is skipped. Only the head is read for the verdict.
     */
    private static String sniff(Path f, Map<String, List<DumpFile>> groups) throws LoadException {
        String n = f.getFileName().toString();
        byte[] head;
        try {
            head = Gunzip.head(f, SNIFF_BYTES);
        } catch (IOException e) {
            return Gunzip.isGzip(f) ? "not a valid gzip file: " + e.getMessage() : "cannot read: " + e.getMessage();
        }
        int got = head.length;
        String start = new String(head, 0, got, StandardCharsets.ISO_8859_1);
        if (Frames.isFramed(start) && start.indexOf('\0') < 0) {
            addFrames(groups, f.toString(), TextReader.readText(DumpFile.of(f, f.toString())));
            return null;
        }
        try {
            TextReader.checkLooksLikeDump(n, start);
        } catch (LoadException e) {
            // The reason without what was expected: the verdict fits in a list of skipped files.
            String why = e.reason();
            int cut = why.indexOf(" (expected");
            return (cut < 0 ? why : why.substring(0, cut)) + (e.line() > 1 ? " (line " + e.line() + ")" : "");
        }
        add(groups, f);
        return null;
    }

    /** {@code p}'s real path (links resolved); a link that leads nowhere, to itself. */
    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | SecurityException e) {
            return p.toAbsolutePath().normalize();
        }
    }

    /** Adds the file at {@code f}, named as it is spelled. */
    private static void add(Map<String, List<DumpFile>> groups, Path f) {
        // Keyed by absolute path so a module named twice (its directory and one of its files) loads once.
        Path abs = f.toAbsolutePath().normalize();
        String key = abs.getParent() + "/" + FileKind.setName(abs.getFileName().toString());
        List<DumpFile> g = groups.computeIfAbsent(key, k -> new ArrayList<>());
        for (DumpFile d : g) if (d.path() != null && d.path().toAbsolutePath().normalize().equals(abs)) return;
        g.add(DumpFile.of(f, f.toString()));
    }

    /** Adds the modules of a stdout log's frames, each frame a file named by its header. */
    private static void addFrames(Map<String, List<DumpFile>> groups, String log, String text) throws LoadException {
        for (DumpFile f : Frames.split(log, text)) {
            groups.computeIfAbsent(FileKind.setName(f.name()), k -> new ArrayList<>()).add(f);
        }
    }

    private static ModuleSource source(String key, List<DumpFile> files) {
        List<DumpFile> sorted = new ArrayList<>(files);
        sorted.sort(Comparator.comparingInt(f -> f.kind().ordinal() == FileKind.BUFFER_ASSIGNMENT.ordinal() ? -1 : f.kind().ordinal()));
        String fileName = sorted.get(0).name();
        int slash = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
        String stem = FileKind.prefix(fileName.substring(slash + 1));
        String program = DumpNames.program(stem);
        return new ModuleSource(key, program != null ? program : stem, DumpNames.number(stem), sorted, TextReader::read);
    }

    /** The text dump files beside {@code p} whose set is {@code set}, in natural order. */
    private static List<Path> textSet(Path p, String set) throws LoadException {
        Path dir = p.toAbsolutePath().getParent();
        List<Path> siblings = new ArrayList<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.filter(f -> {
                String n = f.getFileName().toString();
                return FileKind.of(n) != FileKind.OTHER && FileKind.setName(n).equals(set);
            }).sorted(NATURAL_PATH_ORDER).forEach(siblings::add);
        } catch (IOException e) {
            throw new LoadException(p.toString(), "cannot list directory: " + e.getMessage());
        }
        return siblings;
    }
}
