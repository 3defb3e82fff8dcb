package bufq.api;

import bufq.analysis.fit.Capacities;
import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.Failure;
import bufq.analysis.oom.OomReader;
import bufq.analysis.oom.OomReport;
import bufq.analysis.oom.OomText;
import bufq.model.HloModule;
import bufq.model.ProgramSizes;
import bufq.table.Output;
import bufq.units.Units;

import java.util.Arrays;
import java.util.List;

/**
 * Out-of-memory messages a client read, and the file they came from ({@code run.log}, or "the
 * paste"): read once, joined to the loaded modules at each question. The engine's one owner of
 * what a message decides: which module it names, the capacity it states and when that is adopted,
 * and what failed, for {@code oom}, {@code fit}, {@code advise} and the scripts alike.
 */
public final class OomLog {
    /** The most bytes of a log read; the rest is not. */
    public static final int MAX_BYTES = OomReader.MAX_BYTES;

    private final OomText text;
    private final String source;

    private OomLog(OomText text, String source) {
        this.text = text;
        this.source = source;
    }

    /** Reads the messages in {@code bytes} (up to {@link #MAX_BYTES}); {@code source} names them in results ("message 1 of run.log"). */
    public static OomLog read(byte[] bytes, String source) {
        return new OomLog(OomReader.read(bytes.length > MAX_BYTES ? Arrays.copyOf(bytes, MAX_BYTES) : bytes), source);
    }

    /** Reads the messages in {@code text}. */
    public static OomLog read(String text, String source) {
        return new OomLog(OomReader.read(text), source);
    }

    /** How results name the messages' file. */
    public String source() { return source; }
    /** The out-of-memory messages found, one failure printed several times counted once. */
    public int messages() { return text.messages().size(); }
    /** The log's warnings that bear on memory (rematerialization, unusable donations, ...). */
    public int events() { return text.events().size(); }
    /** The lines read. */
    public int lines() { return text.lines(); }

    /** {@code oom}'s tables: each message, the module and allocation it is about, its buffers, its figures against the dump's. */
    public List<Output> report(List<HloModule> modules) { return OomReport.run(text, modules); }

    /** A loaded module a message names: the first message's, ranked by the evidence. */
    public record Named(String handle, int message) {}

    /** The module the first message that names one is about, or null. */
    public Named named(List<HloModule> modules) {
        for (OomReport.Join j : OomReport.joins(text, modules))
            if (j.module() != null) return new Named(j.module().handle(), j.number());
        return null;
    }

    /**
     * The capacity the messages state, adopted unless the user set one (it wins over a device's
     * table figure, being what this compiler or runtime offered): what {@code said} becomes, and one
     * line telling the user; null when nothing is adopted.
     */
    public Adopted adopt(CapacitySaid said) {
        Capacities.Stated stated = Capacities.stated(text, source, said.said());
        return stated == null ? null : new Adopted(CapacitySaid.stated(stated, said), stated.note());
    }

    /** A capacity taken from the messages, and the line that says so. */
    public record Adopted(CapacitySaid said, String note) {}

    /**
     * When the first program a message names fits alone the capacity {@code said} (a capacity set or
     * stated, never guessed): one line saying something else was held and that {@code fit} works out
     * what; else null.
     */
    public String fitsAlone(List<HloModule> modules, CapacitySaid said) {
        Capacity c = said.resolve();
        if (c == null) return null;
        for (OomReport.Join j : OomReport.joins(text, modules)) {
            if (j.module() == null) continue;
            long needs = ProgramSizes.of(j.module()).needsBytes();
            if (needs < 0 || needs > c.offeredBytes()) continue;
            return j.module().handle() + " fits alone (needs " + Units.human(needs) + " of " + Units.human(c.offeredBytes())
                    + " offered), so something else was held when it failed: 'fit' works out what, and what to drop";
        }
        return null;
    }

    /** What the messages say failed, joined to {@code modules}. */
    List<Failure> failures(List<HloModule> modules) { return Capacities.failures(text, source, modules); }

    /** The failures in a memory other than the device's (XLA:TPU's VMEM), one line each. */
    List<String> otherSpaces(List<HloModule> modules) { return Capacities.otherSpaces(text, source, modules); }

    /** The messages as the analyses read them. */
    OomText text() { return text; }
}
