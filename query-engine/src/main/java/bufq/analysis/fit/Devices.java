package bufq.analysis.fit;

import bufq.units.Units;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.util.List;
import java.util.Locale;

/**
 * Accelerators by name, with the memory of one device (what one JAX device sees) and where each
 * figure comes from. Vendors write GiB (Google) or GB (NVIDIA): a datasheet's GB is read as
 * 10^9 bytes. A program is offered less than the nominal memory: where the runtime's own figure is
 * known it is {@link Device#offeredBytes}, with where it was read ({@link Device#offeredFrom}); an
 * out-of-memory message's own stated capacity wins over both where one is given. The device memory
 * is colour 0 of a dump; a TPU's on-chip VMEM (colour 1) is another memory with its own capacity
 * ({@link Device#vmemBytes}).
 */
public final class Devices {
    private Devices() {}

    /**
     * @param memory       the figure as the vendor writes it
     * @param bytes        that figure in bytes
     * @param offeredBytes what the runtime offers a program by default, -1 when not known
     * @param source       the vendor document the memory figure comes from
     * @param offeredFrom  where the offered figure comes from, null when not known
     * @param vmemBytes    a TPU core's VMEM (colour 1, on-chip scratch), -1 when not known or not a TPU
     * @param vmemFrom     where the VMEM figure comes from, null when not known
     */
    public record Device(String name, String model, String memory, long bytes, long offeredBytes, String source,
                         String offeredFrom, long vmemBytes, String vmemFrom) {
        public Device(String name, String model, String memory, long bytes, long offeredBytes, String source, String offeredFrom) {
            this(name, model, memory, bytes, offeredBytes, source, offeredFrom, -1, null);
        }

        /** The capacity this device gives: its memory, less the runtime's reservation where known. */
        public Capacity capacity() {
            String src = "device " + name + ": " + memory + " (" + source + ")";
            if (offeredBytes < 0) return new Capacity(bytes, 0, src);
            return new Capacity(bytes, bytes - offeredBytes, src + ", of which a program is offered "
                    + Units.human(offeredBytes) + " (" + offeredFrom + ")");
        }
    }

    private static final String JAX_GPU = "JAX docs, 'GPU memory allocation': JAX preallocates 75% of the GPU's memory"
            + " (XLA_PYTHON_CLIENT_MEM_FRACTION)";
    private static final long GB = 1_000_000_000L, GIB = 1L << 30;

    public static final List<Device> ALL = List.of(
            new Device("v4", "Cloud TPU v4", "32 GiB HBM2 per chip", 32 * GIB, -1,
                    "Google Cloud TPU docs, 'TPU v4'", null),
            // 15.75G is what libtpu 0.0.42.1 (jax 0.10.2) offers a program on a v5e chip, in its
            // compile-time message; older libtpu messages said 'of 15.48G hbm'.
            new Device("v5e", "Cloud TPU v5e", "16 GiB HBM2 per chip", 16 * GIB, Math.round(15.75 * GIB),
                    "Google Cloud TPU docs, 'TPU v5e'", "XLA:TPU's compile-time out-of-memory message (libtpu 0.0.42.1):"
                    + " 'exceeds available HBM (15.75G)'; older libtpu said 'of 15.48G hbm'", 128L << 20,
                    "XLA:TPU's VMEM out-of-memory message: 'Used ... of 128.00M vmem'"),
            new Device("v5p", "Cloud TPU v5p", "95 GiB HBM2e per chip", 95 * GIB, -1,
                    "Google Cloud TPU docs, 'TPU v5p'", null),
            new Device("v6e", "Cloud TPU v6e (Trillium)", "32 GiB HBM per chip", 32 * GIB, -1,
                    "Google Cloud TPU docs, 'TPU v6e'", null),
            new Device("a100-40gb", "NVIDIA A100 40GB", "40GB HBM2", 40 * GB, 30 * GB,
                    "NVIDIA A100 Tensor Core GPU datasheet", JAX_GPU),
            new Device("a100-80gb", "NVIDIA A100 80GB", "80GB HBM2e", 80 * GB, 60 * GB,
                    "NVIDIA A100 Tensor Core GPU datasheet", JAX_GPU),
            new Device("h100", "NVIDIA H100 SXM", "80GB HBM3", 80 * GB, 60 * GB,
                    "NVIDIA H100 Tensor Core GPU datasheet", JAX_GPU),
            new Device("h200", "NVIDIA H200 SXM", "141GB HBM3e", 141 * GB, Math.round(141 * GB * 0.75),
                    "NVIDIA H200 Tensor Core GPU datasheet", JAX_GPU),
            new Device("b200", "NVIDIA B200", "180GB HBM3e (1,440GB across 8 GPUs)", 180 * GB, 135 * GB,
                    "NVIDIA DGX B200 datasheet", JAX_GPU));

    /** Other names people use: {@code a100} is the 80GB part, {@code tpu-v5e} is {@code v5e}. */
    public static Device byName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace("tpu-", "").replace("tpu", "");
        if (n.equals("a100")) n = "a100-80gb";
        if (n.equals("v5litepod") || n.equals("v5lite")) n = "v5e";
        for (Device d : ALL) if (d.name().equals(n)) return d;
        return null;
    }

    public static List<String> names() {
        return ALL.stream().map(Device::name).toList();
    }

    /** The table {@code help device} prints. */
    public static Table table() {
        Table.Builder b = Table.builder().key("devices").title("devices ('set device NAME', '--device NAME')")
                .column("device", ColumnType.STRING).column("model", ColumnType.STRING)
                .column("memory", ColumnType.STRING).column("bytes", ColumnType.BYTES)
                .column("offered_bytes", ColumnType.BYTES).column("source", ColumnType.STRING)
                .column("offered_source", ColumnType.STRING).column("vmem_bytes", ColumnType.BYTES)
                .column("vmem_source", ColumnType.STRING);
        for (Device d : ALL)
            b.row(d.name(), d.model(), d.memory(), d.bytes(), d.offeredBytes() < 0 ? null : d.offeredBytes(), d.source(),
                    d.offeredFrom(), d.vmemBytes() < 0 ? null : d.vmemBytes(), d.vmemFrom());
        return b.note("GB is the vendor's (10^9 bytes), GiB 2^30. bytes is the physical memory (the datasheet's);"
                        + " offered_bytes is what a program gets by default, as the runtime or compiler reports it"
                        + " (where it is empty, set reserved to what the runtime keeps); an out-of-memory message's"
                        + " own stated capacity wins over both. These are the device memory (HBM, color 0); vmem_bytes"
                        + " is a TPU's on-chip VMEM (color 1), another memory.")
                .build();
    }
}
