package bufq.api;

import bufq.analysis.fit.Capacities;
import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.CapacityChoice;
import bufq.analysis.fit.Devices;
import bufq.table.Table;
import bufq.units.Units;

import java.util.List;

/**
 * What a client says of the memory the programs may use, as plain values ({@code set capacity},
 * {@code set device}, {@code set reserved}, or a capacity an out-of-memory message stated). The
 * engine resolves it, one way for every client: the capacity said, else the device's figure, less
 * the reservation; none is ever guessed.
 *
 * @param capacity      a size with its unit, {@code host}, {@code unlimited} or {@code none}, as {@link #capacityText} reads it
 * @param statedBy      the message that stated {@code capacity} (its bytes then), or null when the user said it
 * @param device        a device's name ({@link #devices}), or null
 * @param reservedBytes what the runtime keeps, -1 when not said
 * @param reservedText  the reservation as typed, for messages
 */
public record CapacitySaid(String capacity, String statedBy, String device, long reservedBytes, String reservedText) {
    /** Nothing said: no capacity, no device, no reservation. */
    public static final CapacitySaid NONE = new CapacitySaid("none", null, null, -1, "none");

    /** An accelerator {@code set device} knows: its memory as the vendor writes it and in bytes. */
    public record Device(String name, String model, String memory, long bytes) {}

    /**
     * {@code text} as a capacity: {@code none}, {@code host}, {@code unlimited} or a size with its
     * unit ({@code 16GiB}, {@code 80GB}), returned as {@code set} shows it.
     *
     * @throws NumberFormatException saying what was expected
     */
    public static String capacityText(String text) {
        return CapacityChoice.of(text).text();
    }

    /** The devices {@code set device} knows, in the order {@code help device} lists them. */
    public static List<Device> devices() {
        return Devices.ALL.stream().map(CapacitySaid::device).toList();
    }

    /** The device {@code name} names ({@code a100}, {@code tpu-v5e} and other names people use), or null. */
    public static Device device(String name) {
        Devices.Device d = Devices.byName(name);
        return d == null ? null : device(d);
    }

    /** The table {@code help device} prints, with the source of each figure. */
    public static Table deviceTable() { return Devices.table(); }

    private static Device device(Devices.Device d) {
        return new Device(d.name(), d.model(), d.memory(), d.bytes());
    }

    /**
     * Whether a capacity is said: set, stated by a message, or a device's ({@code fit} refuses to run
     * without one where no message bounds it).
     *
     * @throws IllegalArgumentException when the reservation is not below the capacity
     */
    public boolean given() {
        return resolve() != null;
    }

    /**
     * The capacity said, null when none is.
     *
     * @throws IllegalArgumentException when the reservation is not below the capacity
     */
    Capacity resolve() {
        return Capacities.resolve(said());
    }

    /** As the fit analysis takes it. */
    Capacities.Said said() {
        CapacityChoice choice = statedBy == null ? CapacityChoice.of(capacity) : CapacityChoice.stated(Units.parse(capacity, true), statedBy);
        return new Capacities.Said(choice, device == null ? null : Devices.byName(device), reservedBytes, reservedText);
    }

    /** A capacity the messages stated, to adopt: what a client sets in place of its own. */
    static CapacitySaid stated(Capacities.Stated s, CapacitySaid over) {
        return new CapacitySaid(s.choice().text(), s.choice().statedBy(), over.device(), over.reservedBytes(), over.reservedText());
    }
}
