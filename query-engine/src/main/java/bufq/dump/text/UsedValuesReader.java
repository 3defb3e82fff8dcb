package bufq.dump.text;

import bufq.dump.file.DumpFile;
import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.dump.text.Interner;

import bufq.model.HloValue;
import bufq.model.PartReadException;
import bufq.model.UsedValues;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a module's {@code Used values} section into {@link UsedValues}: parsed with the rest of the
 * module when the load asked for it, or on first use. A read on first use opens the files again
 * (the load kept no mapping of them, and no text), checks that they are as they were when the module
 * was loaded, and parses the section's regions in parallel as a load does, cancelled the same way.
 */
final class UsedValuesReader implements UsedValues.Reader {
    /** A file's size and modification time when it was opened; -1 for text in memory. */
    record Stamp(long size, long modified) {
        static Stamp of(DumpFile f) {
            if (f.path() == null) return new Stamp(-1, -1);
            try {
                BasicFileAttributes a = Files.readAttributes(f.path(), BasicFileAttributes.class);
                return new Stamp(a.size(), a.lastModifiedTime().toMillis());
            } catch (IOException e) {
                return new Stamp(-2, -2);   // gone: the read says so when it opens the file
            }
        }
    }

    /** A region still to parse; the first of its file knows its first line (the regions before it are parsed). */
    private record Pending(DumpFile file, Stamp stamp, int from, int to, long firstLine, boolean lastOfFile,
                           boolean truncationReported) {}

    /**
     * Joins the parsed value regions to the module's values ({@code ModuleAssembler::usedValues}):
     * handed in, so this reader does not call back into the assembler that made it.
     */
    @FunctionalInterface
    interface Join {
        UsedValues join(List<Region> regions, List<HloValue> values, List<String> sequence);
    }

    private final String module;
    private final Join join;
    private List<Region> parsed;   // parsed with the module, until joined
    private final List<Pending> pending;

    /**
     * @param regions the section's regions, all parsed or none
     * @param stamps  of each of {@code source}'s files, in its order
     */
    UsedValuesReader(ModuleSource source, List<Region> regions, List<Stamp> stamps, Join join) {
        this.module = source.name();
        this.join = join;
        boolean all = true;
        for (Region r : regions) all &= r.part != null;
        if (all) {
            parsed = regions;
            pending = List.of();
            return;
        }
        pending = new ArrayList<>(regions.size());
        for (Region r : regions) {
            boolean first = r.prev == null || r.prev.kind != Region.Kind.VALUES;
            pending.add(new Pending(r.file, stamps.get(indexOf(source.dumpFiles(), r.file)), r.from, r.to,
                    first ? r.firstLine() : 0, r.lastOfFile, r.truncationReported));
        }
    }

    /**
     * The position of {@code file} in {@code files}, by identity: a record's {@code equals} would be
     * bootstrapped at its first call, about 20 method-handle classes spun on every load's path.
     */
    private static int indexOf(List<DumpFile> files, DumpFile file) {
        for (int i = 0; i < files.size(); i++) if (files.get(i) == file) return i;
        throw new IllegalArgumentException(file.name() + " is not one of the module's files");
    }

    /** True when the section was parsed with the module (or the module has none): it is joined at once. */
    boolean parsed() { return parsed != null; }

    @Override public UsedValues read(List<HloValue> values, List<String> sequence) throws PartReadException {
        List<Region> regions = parsed != null ? parsed : reread();
        UsedValues u = join.join(regions, values, sequence);
        parsed = null;   // the parts and the text they came from are garbage now
        return u;
    }

    private List<Region> reread() throws PartReadException {
        Map<DumpFile, DumpText> open = new HashMap<>();
        List<Region> regions = new ArrayList<>(pending.size());
        Region prev = null;
        long chars = 0;
        try {
            for (Pending p : pending) {
                DumpText src = open.get(p.file());
                if (src == null) {
                    if (!Stamp.of(p.file()).equals(p.stamp())) throw changed(p.file());
                    src = TextFiles.open(p.file());
                    open.put(p.file(), src);
                }
                if (p.to() > src.length()) throw changed(p.file());
                Region r = new Region(p.file(), src, Region.Kind.VALUES, p.from(), p.to());
                if (p.firstLine() > 0) r.firstLine(p.firstLine());
                else r.prev = prev;
                r.lastOfFile = p.lastOfFile();
                r.cutOff = p.lastOfFile() && src.truncated;
                r.truncationReported = p.truncationReported();
                regions.add(r);
                prev = r;
                chars += p.to() - p.from();
            }
            Region.parseAll(regions, new Interner((int) Math.min(1 << 24, chars / 300)), module);
        } catch (LoadException e) {
            throw new PartReadException(e.getMessage(), "cancelled".equals(e.reason()));
        }
        return regions;
    }

    private static PartReadException changed(DumpFile f) {
        return new PartReadException(f.name() + ": changed since the module was loaded; load it again", false);
    }
}
