package bufq.analysis.oom;

import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.Shape;

import java.util.ArrayList;
import java.util.List;

/**
 * The values of a module a listed buffer is, and how they were found: by the allocation index the
 * message names, by the instruction its label or tag names, by size, shape and opcode, by size only.
 *
 * @param kind   {@code allocation index}, {@code instruction name}, {@code size+shape+opcode},
 *               {@code size+shape}, {@code size only} or {@code none}
 * @param values the values, in the module's order
 */
record BufferMatch(String kind, List<HloValue> values) {
    static final String NONE = "none";

    /** Whether this names the buffer by more than its size. */
    boolean strong() { return !values.isEmpty() && !kind.equals("size only"); }

    static BufferMatch find(ListedBuffer b, HloModule m) {
        if (b.allocationIndex() >= 0 && m.allocation(b.allocationIndex()) != null) {
            List<HloValue> vs = m.valuesIn(b.allocationIndex());
            if (!vs.isEmpty()) return new BufferMatch("allocation index", List.copyOf(vs));
        }
        if (b.instruction() != null) {
            List<HloValue> vs = m.valuesNamed(b.instruction());
            if (!vs.isEmpty()) return new BufferMatch("instruction name", vs);
        }
        if (b.size() == null) return new BufferMatch(NONE, List.of());
        List<HloValue> bySize = new ArrayList<>();
        for (HloValue v : m.values()) if (b.size().contains(v.size()) || b.size().contains(v.logicalSize())) bySize.add(v);
        if (bySize.isEmpty()) return new BufferMatch(NONE, List.of());
        if (b.shape() != null) {
            String dims = Shape.withoutLayout(b.shape());
            List<HloValue> byShape = new ArrayList<>();
            for (HloValue v : bySize) if (Shape.withoutLayout(v.shape().text()).equals(dims)) byShape.add(v);
            if (!byShape.isEmpty()) {
                if (b.opcode() != null) {
                    List<HloValue> byOpcode = new ArrayList<>();
                    for (HloValue v : byShape) if (b.opcode().equals(opcode(m, v))) byOpcode.add(v);
                    if (!byOpcode.isEmpty()) return new BufferMatch("size+shape+opcode", byOpcode);
                }
                return new BufferMatch("size+shape", byShape);
            }
        }
        return new BufferMatch("size only", bySize);
    }

    /** The opcode of the instruction that defines {@code v}, or null (no Used values section, or not there). */
    private static String opcode(HloModule m, HloValue v) {
        HloInstruction ins = m.instruction(v.name());
        return ins == null ? null : ins.opcode();
    }

}
