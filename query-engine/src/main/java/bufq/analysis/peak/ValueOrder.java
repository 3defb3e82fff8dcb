package bufq.analysis.peak;

import bufq.model.HloValue;
import bufq.table.NaturalOrder;

import java.util.Comparator;

/** The order the peak reports list values in, shared so the claimed-peak note and the peak table agree. */
final class ValueOrder {
    /** Largest logical size first, ties in the natural order of their labels. */
    static final Comparator<HloValue> LARGEST_FIRST =
            Comparator.comparingLong(HloValue::logicalSize).reversed().thenComparing(ValueOrder::compareLabels);

    private ValueOrder() {}

    /** Natural order of the labels ({@code copy.2} before {@code copy.10}) without building them: name, then index. */
    static int compareLabels(HloValue a, HloValue b) {
        int c = NaturalOrder.INSTANCE.compare(a.name(), b.name());
        if (c != 0) return c;
        return NaturalOrder.INSTANCE.compare(a.indexPrinted() ? a.index() : "", b.indexPrinted() ? b.index() : "");
    }
}
