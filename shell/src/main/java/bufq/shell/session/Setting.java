package bufq.shell.session;

import bufq.lang.NearNames;
import bufq.api.CapacitySaid;
import bufq.units.Units;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every session setting, in one place: its name, the values it takes, its default and how text
 * becomes a value. {@code set}, its validation, its listing and the REPL's completion all read this.
 */
public enum Setting {
    RAWSIZES("on|off", "off", "sizes as plain byte counts instead of KiB/MiB (table, markdown)"),
    MAXROWS("N", "200", "rows shown per table in table and markdown (0 = all); data formats never cut"),
    MAXWIDTH("N", "80", "widest cell in the table format, longer text cut with … (0 = no limit)"),
    FOLDWIDTH("N", "400", "longest line of the table format in a pipe or file: wider tables print one field per line, nothing cut (0 = a row a line)"),
    COLOR("auto|on|off", "auto", "colour in the table format: auto = on a terminal; never with NO_COLOR set"),
    TIMER("on|off", "off", "print the elapsed time after each result (on stderr)"),
    ECHO("on|off", "off", "print each statement above its results: a heading in markdown, a -- line in the table format"),
    PAGER("on|off", "off", "in the interactive shell, show results taller than the terminal through $PAGER (default less -RS)"),
    THRESHOLD("SIZE", "16KiB", "values smaller than this fold into one row in the peak report"),
    TILING("NAME", "tpu", "tiling model used for padded sizes (built in: tpu, none)"),
    TIMEOUT("SECONDS", "10", "time limit for each query and each call into JavaScript (js, run FILE.js, -f, fields, tilings, checks; 0 = none; to the millisecond, e.g. 0.5)"),
    CAPACITY("SIZE", "none", "memory of the device (or process) 'fit' checks against, e.g. 16GiB, 80GB, host (this machine's), unlimited; none = the device's"),
    DEVICE("NAME", "none", "an accelerator whose memory 'fit' uses when capacity is none (help device lists them)"),
    RESERVED("SIZE", "none", "of the capacity, what the runtime keeps before any program; none = the device's figure, else 0");

    /**
     * A reservation as read once: {@code bytes} of the capacity the runtime keeps, {@code text} as
     * the user wrote it; {@link #NONE} leaves it to the device's figure (else 0).
     */
    public record Reserved(long bytes, String text) {
        public static final Reserved NONE = new Reserved(-1, "none");

        public boolean isSet() { return bytes >= 0; }

        @Override public String toString() { return text; }
    }

    /** The value of {@code device} when none is set: shown as {@code none}. */
    static final Object NO_DEVICE = new Object() {
        @Override public String toString() { return "none"; }
    };

    private static final BigDecimal MAX_TIMEOUT = BigDecimal.valueOf(Integer.MAX_VALUE);

    private final String syntax;
    private final String defaultText;
    private final String doc;

    Setting(String syntax, String defaultText, String doc) {
        this.syntax = syntax;
        this.defaultText = defaultText;
        this.doc = doc;
    }

    /** The name used by {@code set}: the constant in lower case. */
    public String key() { return name().toLowerCase(Locale.ROOT); }
    /** The accepted values, e.g. {@code on|off} or {@code N}. */
    public String syntax() { return syntax; }
    public String defaultText() { return defaultText; }
    public String doc() { return doc; }

    /** Fixed choices for completion; empty when the value is free (a number, a size, a name). */
    public List<String> choices() {
        return syntax.contains("|") ? List.of(syntax.split("\\|")) : List.of();
    }

    /**
     * What completion offers after {@code set NAME }: the fixed choices, else values worth typing,
     * each with what it stands for (null when it says itself): the devices by name, capacities of
     * the known devices as sizes, the default and the ends of a number's range. Tiling models are
     * the session's (see {@link Settings#tilingNames}).
     */
    public Map<String, String> suggestions() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String c : choices()) out.put(c, null);
        switch (this) {
            case DEVICE -> {
                out.put("none", "no device: capacity alone");
                for (CapacitySaid.Device d : CapacitySaid.devices()) out.put(d.name(), d.model() + ", " + d.memory());
            }
            case CAPACITY -> {
                out.put("none", "the device's memory");
                for (CapacitySaid.Device d : CapacitySaid.devices()) out.merge(sizeText(d.bytes()), d.name(), (x, y) -> x + ", " + y);
            }
            case RESERVED -> {
                out.put("none", "the device's figure, else 0");
                out.put("0", "nothing reserved");
            }
            case MAXROWS -> { out.put("0", "all rows"); out.put(defaultText, "the default"); }
            case MAXWIDTH -> { out.put("0", "no limit: cells whole, tables not fitted"); out.put(defaultText, "the default"); }
            case FOLDWIDTH -> { out.put("0", "no limit: a row a line"); out.put(defaultText, "the default"); }
            case TIMEOUT -> { out.put("0", "no limit"); out.put(defaultText, "the default, seconds"); }
            case THRESHOLD -> { out.put(defaultText, "the default"); out.put("1MiB", null); }
            default -> { }
        }
        return out;
    }

    /** A device's memory as one types it: {@code 16GiB}, {@code 80GB}. */
    private static String sizeText(long bytes) {
        long gib = 1L << 30, gb = 1_000_000_000L;
        if (bytes % gib == 0) return bytes / gib + "GiB";
        if (bytes % gb == 0) return bytes / gb + "GB";
        return bytes + "B";
    }

    /** The setting called {@code key}, or null. */
    public static Setting byKey(String key) {
        for (Setting s : values()) if (s.key().equals(key.toLowerCase(Locale.ROOT))) return s;
        return null;
    }

    /** Converts text to this setting's value type; the message says what was expected. */
    Object parse(String text) throws CommandException {
        String t = text.trim().toLowerCase(Locale.ROOT);
        switch (this) {
            case RAWSIZES, TIMER, PAGER, ECHO -> {
                if (t.equals("on") || t.equals("true")) return Boolean.TRUE;
                if (t.equals("off") || t.equals("false")) return Boolean.FALSE;
                throw new CommandException(key() + " takes on or off, not '" + text + "'");
            }
            case COLOR -> {
                if (choices().contains(t)) return t;
                throw new CommandException("color takes auto, on or off, not '" + text + "'");
            }
            case MAXROWS, MAXWIDTH, FOLDWIDTH -> {
                try {
                    int n = Integer.parseInt(t);
                    if (n >= 0) return n;
                } catch (NumberFormatException e) {
                    // fall through to the message
                }
                throw new CommandException(key() + " takes a whole number >= 0, not '" + text + "'");
            }
            case TIMEOUT -> {
                // Milliseconds; up to the whole number of seconds it took before fractions.
                try {
                    BigDecimal s = new BigDecimal(t);
                    if (s.signum() >= 0 && s.stripTrailingZeros().scale() <= 3 && s.compareTo(MAX_TIMEOUT) <= 0)
                        return s.movePointRight(3).longValueExact();
                } catch (NumberFormatException | ArithmeticException e) {
                    // fall through to the message
                }
                throw new CommandException("timeout takes seconds >= 0, to the millisecond (such as 10 or 0.5), not '" + text + "'");
            }
            case THRESHOLD -> {
                try {
                    return Units.parse(text);
                } catch (NumberFormatException e) {
                    throw new CommandException("threshold: " + e.getMessage());
                }
            }
            case TILING -> {
                if (t.isEmpty()) throw new CommandException("tiling takes a model name such as tpu or none");
                return t;
            }
            case CAPACITY -> {
                try {
                    return CapacitySaid.capacityText(text);
                } catch (NumberFormatException e) {
                    throw new CommandException(key() + ": " + e.getMessage());
                }
            }
            case RESERVED -> {
                if (t.equals("none")) return Reserved.NONE;
                try {
                    return new Reserved(Units.parse(text, !t.equals("0")), text.trim());
                } catch (NumberFormatException e) {
                    throw new CommandException(key() + ": " + e.getMessage());
                }
            }
            case DEVICE -> {
                if (t.equals("none")) return NO_DEVICE;
                CapacitySaid.Device d = CapacitySaid.device(t);
                if (d == null) {
                    List<String> names = CapacitySaid.devices().stream().map(CapacitySaid.Device::name).toList();
                    throw new CommandException("unknown device '" + text + "'" + NearNames.hint(t, names)
                            + " (known: " + String.join(", ", names) + "; see help device)");
                }
                return d;
            }
            default -> throw new IllegalStateException(name());
        }
    }
}
