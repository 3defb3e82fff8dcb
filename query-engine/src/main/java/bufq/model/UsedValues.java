package bufq.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a module's {@code Used values:} section adds to the rest of the dump: each value's positions
 * and uses, and the instructions as their defining lines print them (joined with the schedule).
 * Immutable. A module holds it through a {@link Handle}, which the dump reader makes: read already,
 * or read on first use when the load left the section for later ({@link LoadOptions}).
 */
public final class UsedValues {
    /** Reads the section of one module, joined to its values (in {@code values} order) and schedule. */
    @FunctionalInterface
    public interface Reader {
        /** @throws PartReadException when cancelled, or when a file changed since the load */
        UsedValues read(List<HloValue> values, List<String> sequence) throws PartReadException;
    }

    // Per value (its position in the module's list): positions (null: the one default position,
    // its own instruction and index) and uses (one HloUse, or a list).
    private final Object[] positions;
    private final Object[] uses;
    private final List<HloInstruction> instructions;
    private final NameIndex<HloInstruction> byName;
    private final List<LoadWarning> warnings;
    private final int warningCount;
    private final Map<Long, Integer> sharedBlockIds;
    private final Lazy<Map<String, List<String>>> usersByOperand = new Lazy<>(this::usersByOperand);

    /**
     * @param values       the module's values, in order
     * @param positions    per value, its positions (null or empty when it has no block)
     * @param uses         per value, its uses (null or empty when none)
     * @param instructions sequenced instructions in time order, then the others
     * @param warnings     warnings reading the section raised (the first ones kept)
     * @param warningCount how many it raised
     */
    public UsedValues(List<HloValue> values, List<List<HloPosition>> positions, List<List<HloUse>> uses,
                      List<HloInstruction> instructions, List<LoadWarning> warnings, int warningCount) {
        this(values, positions, uses, instructions, warnings, warningCount, Map.of());
    }

    /**
     * As above, with the ids that head more than one block of the section (id to number of blocks;
     * the last block's positions and uses are kept).
     */
    public UsedValues(List<HloValue> values, List<List<HloPosition>> positions, List<List<HloUse>> uses,
                      List<HloInstruction> instructions, List<LoadWarning> warnings, int warningCount,
                      Map<Long, Integer> sharedBlockIds) {
        this.sharedBlockIds = Map.copyOf(sharedBlockIds);
        int n = values.size();
        this.positions = new Object[n];
        this.uses = new Object[n];
        for (int i = 0; i < n; i++) {
            HloValue v = values.get(i);
            List<HloPosition> p = positions.get(i) == null ? List.of() : positions.get(i);
            List<HloUse> u = uses.get(i) == null ? List.of() : uses.get(i);
            this.positions[i] = HloValue.packPositions(p, v.name(), v.index());
            this.uses[i] = HloValue.packUses(u);
        }
        this.instructions = List.copyOf(instructions);
        this.byName = new NameIndex<>(this.instructions.size());
        for (HloInstruction ins : this.instructions) byName.putIfAbsent(ins.name(), ins);
        this.warnings = List.copyOf(warnings);
        this.warningCount = Math.max(warningCount, warnings.size());
    }

    /** Instructions only (a module built in memory: its values carry their own positions and uses). */
    static UsedValues of(List<HloInstruction> instructions) {
        return new UsedValues(List.of(), List.of(), List.of(), instructions, List.of(), 0);
    }

    List<HloPosition> positions(int slot, HloValue v) { return HloValue.unpackPositions(positions[slot], v.name(), v.index()); }

    List<HloUse> uses(int slot) { return HloValue.unpackUses(uses[slot]); }

    List<HloInstruction> instructions() { return instructions; }

    HloInstruction instruction(String name) { return byName.get(name); }

    List<LoadWarning> warnings() { return warnings; }

    int warningCount() { return warningCount; }

    Map<Long, Integer> sharedBlockIds() { return sharedBlockIds; }

    List<String> users(String name) { return usersByOperand.get().getOrDefault(name, List.of()); }

    /** Each operand's users, in instruction order: built on the first {@link #users} question. */
    private Map<String, List<String>> usersByOperand() {
        Map<String, List<String>> u = new HashMap<>();
        for (HloInstruction ins : instructions) {
            for (String op : ins.operands()) u.computeIfAbsent(op, k -> new ArrayList<>(2)).add(ins.name());
        }
        return u;
    }

    /**
     * The section of one module as its reader left it: read already, or read once on first use and
     * then shared by every copy of the module ({@link HloModule#withHandle}) and its values.
     * Thread-safe: concurrent first uses wait for one read. A failed read keeps nothing; the next
     * use tries again.
     */
    public static final class Handle extends HloValue.Details {
        private final Reader reader;
        private final int instructionCount;
        private List<HloValue> values;
        private List<String> sequence;
        private volatile UsedValues read;

        /** A section still to be read by {@code reader}. */
        public Handle(Reader reader) {
            this(reader, -1);
        }

        /**
         * A section still to be read by {@code reader}, which will hold {@code instructionCount}
         * instructions (as the reader counted them without reading it; -1 when it did not).
         */
        public Handle(Reader reader, int instructionCount) {
            this.reader = reader;
            this.instructionCount = instructionCount;
        }

        /** A section already read. */
        public static Handle of(UsedValues read) {
            Handle d = new Handle(null);
            d.read = read;
            return d;
        }

        /** The instructions the section holds, as counted before reading it; -1 when not counted. */
        int instructionCount() { return instructionCount; }

        /** The module's lists, which the read joins to; set once by the module. */
        synchronized void bind(List<HloValue> values, List<String> sequence) {
            if (this.values == null) {
                this.values = values;
                this.sequence = sequence;
            }
        }

        /** Whether the section is in memory (read with the module, or since). */
        public boolean isRead() { return read != null; }

        /**
         * Reads the section if it is not read yet (the first of concurrent callers reads, the
         * others wait). Clients call this before running what needs the section, so that its
         * progress, cancellation and failure come up front, as a load's do.
         *
         * @throws PartReadException when the read fails (cancelled, or a file changed)
         */
        public void read() throws PartReadException { section(); }

        /** The warnings kept of reading the section (the first ones); empty while it is not read. */
        public List<LoadWarning> warnings() { return isRead() ? read.warnings : List.of(); }

        /** How many warnings reading the section raised, including those not kept; 0 while it is not read. */
        public int warningCount() { return isRead() ? read.warningCount : 0; }

        @Override List<HloPosition> positions(int slot, HloValue v) { return get().positions(slot, v); }

        @Override List<HloUse> uses(int slot) { return get().uses(slot); }

        /** The section for a getter that reads it on first use. @throws PartReadException.Unchecked if the read fails */
        UsedValues get() {
            try {
                return section();
            } catch (PartReadException e) {
                throw new PartReadException.Unchecked(e);
            }
        }

        private UsedValues section() throws PartReadException {
            UsedValues r = read;
            if (r != null) return r;
            synchronized (this) {
                if (read == null) {
                    if (values == null) throw new IllegalStateException("values deferred to a section no module holds");
                    read = reader.read(values, sequence);
                }
                return read;
            }
        }
    }
}
