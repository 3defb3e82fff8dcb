package bufq.shell.session;

import bufq.units.Units;
import bufq.api.CapacitySaid;
import bufq.model.TilingModel;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The current value of every {@link Setting}, and the tiling models {@code set tiling} may pick. */
public final class Settings {
    private final EnumMap<Setting, Object> values = new EnumMap<>(Setting.class);
    private final Map<String, TilingModel> tilings = new LinkedHashMap<>();
    /** The message that stated the capacity held, null when the user set it (or none is). */
    private String capacityStatedBy;

    public Settings() {
        registerTiling(TilingModel.TPU);
        registerTiling(TilingModel.NONE);
        for (Setting s : Setting.values()) {
            try {
                values.put(s, s.parse(s.defaultText()));
            } catch (CommandException e) {
                throw new IllegalStateException("bad default for " + s, e);
            }
        }
    }

    /**
     * The folders {@code sql} may read and write files under, given on the command line
     * ({@code --sql-allow}); no statement can add to them.
     */
    private List<java.nio.file.Path> sqlAllowed = List.of();

    /** Lets {@code sql} reach {@code dir} (an existing folder); only the command line calls this. */
    public void allowSql(java.nio.file.Path dir) throws CommandException {
        java.nio.file.Path real;
        try {
            real = dir.toRealPath();
        } catch (java.io.IOException e) {
            throw new CommandException("no folder " + dir);
        }
        if (!java.nio.file.Files.isDirectory(real)) throw new CommandException(dir + " is not a folder");
        List<java.nio.file.Path> all = new java.util.ArrayList<>(sqlAllowed);
        all.add(real);
        sqlAllowed = List.copyOf(all);
    }

    /** What {@link #allowSql} allowed, as real paths. */
    public List<java.nio.file.Path> sqlAllowed() { return sqlAllowed; }

    /** Validates and stores; the message says what the setting takes. */
    public void set(Setting s, String text) throws CommandException {
        Object v = s.parse(text);
        if (s == Setting.MAXWIDTH && (Integer) v > 0 && (Integer) v < 4)
            throw new CommandException("maxwidth takes 0 (no limit) or at least 4, not '" + text + "'");
        if (s == Setting.FOLDWIDTH && (Integer) v > 0 && (Integer) v < 40)
            throw new CommandException("foldwidth takes 0 (no limit) or at least 40, not '" + text + "'");
        if (s == Setting.TILING && !tilings.containsKey((String) v))
            throw new CommandException("unknown tiling model '" + text + "' (known: " + String.join(", ", tilings.keySet()) + ")");
        values.put(s, v);
        if (s == Setting.CAPACITY) capacityStatedBy = null;
    }

    /** The value as {@code set} shows it. */
    public String text(Setting s) { return show(s, values.get(s)); }

    /** The default as {@link #text} shows a value, so a listing prints both one way ({@code 16.0KiB}). */
    public static String defaultText(Setting s) {
        try {
            return show(s, s.parse(s.defaultText()));
        } catch (CommandException e) {
            throw new IllegalStateException("bad default for " + s, e);
        }
    }

    private static String show(Setting s, Object v) {
        if (v instanceof CapacitySaid.Device d) return d.name();
        if (v instanceof Boolean b) return b ? "on" : "off";
        if (s == Setting.THRESHOLD) return Units.human((Long) v);
        if (s == Setting.TIMEOUT) return BigDecimal.valueOf((Long) v, 3).stripTrailingZeros().toPlainString();
        return String.valueOf(v);
    }

    public boolean rawSizes() { return (Boolean) values.get(Setting.RAWSIZES); }
    public int maxRows() { return (Integer) values.get(Setting.MAXROWS); }
    public int maxWidth() { return (Integer) values.get(Setting.MAXWIDTH); }
    /** The longest line of the table format where nothing may be cut (a pipe, a file); 0: none. */
    public int foldWidth() { return (Integer) values.get(Setting.FOLDWIDTH); }
    /** {@code auto}, {@code on} or {@code off}. */
    public String color() { return (String) values.get(Setting.COLOR); }
    public boolean timer() { return (Boolean) values.get(Setting.TIMER); }
    public boolean echo() { return (Boolean) values.get(Setting.ECHO); }
    /** Page long results in the interactive shell. */
    public boolean pager() { return (Boolean) values.get(Setting.PAGER); }
    public long threshold() { return (Long) values.get(Setting.THRESHOLD); }
    /** The time limit of a query and of a call into JavaScript; zero: none. */
    public Duration timeout() { return Duration.ofMillis((Long) values.get(Setting.TIMEOUT)); }
    /** The time limit in seconds as the user sets it and messages name it: {@code 10}, {@code 0.5}. */
    public String timeoutText() { return text(Setting.TIMEOUT); }
    /** The device {@code set device} named, or null. */
    public CapacitySaid.Device device() { return values.get(Setting.DEVICE) instanceof CapacitySaid.Device d ? d : null; }

    /** What the session says of the capacity ({@code set capacity}, {@code set device}, {@code set reserved}), for the engine to resolve. */
    public CapacitySaid capacitySaid() {
        Setting.Reserved res = reserved();
        CapacitySaid.Device d = device();
        return new CapacitySaid((String) values.get(Setting.CAPACITY), capacityStatedBy, d == null ? null : d.name(),
                res.isSet() ? res.bytes() : -1, res.text());
    }

    /** What {@code set reserved} said, read once. */
    public Setting.Reserved reserved() { return (Setting.Reserved) values.get(Setting.RESERVED); }

    /** Takes the capacity a message stated ({@link bufq.api.OomLog#adopt}) in place of the one set. */
    public void adoptCapacity(CapacitySaid said) {
        values.put(Setting.CAPACITY, said.capacity());
        capacityStatedBy = said.statedBy();
    }

    public TilingModel tiling() { return tilings.get((String) values.get(Setting.TILING)); }

    /** The tiling model registered as {@code name}, or null. */
    public TilingModel tilingNamed(String name) { return tilings.get(name); }

    /** Makes a tiling model selectable with {@code set tiling NAME} (scripts add their own). */
    public void registerTiling(TilingModel m) { tilings.put(m.name(), m); }
    public List<String> tilingNames() { return List.copyOf(tilings.keySet()); }
}
