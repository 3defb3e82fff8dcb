package bufq.dump.proto;

/**
 * What the dataflow and the live ranges tell apart in an instruction's opcode, decided once per
 * instruction ({@link Graph#op}) instead of comparing its opcode's text at every look: the reader
 * runs on the client compiler, where each string switch hashed and compared again.
 */
enum Op {
    PARAMETER, WHILE, CALL, CONDITIONAL, FUSION, TUPLE, GET_TUPLE_ELEMENT, COPY, COPY_START, COPY_DONE,
    /** Passes its operand's value sets through: bitcast, add-dependency, opt-barrier, optimization-barrier. */
    FORWARD,
    /** Forwards like {@link #FORWARD}, and never uses its operand's values (XLA's MayUseOperandValue). */
    DOMAIN,
    /** Defines a value at every index of its shape. */
    OTHER;

    static Op of(String opcode) {
        return switch (opcode) {
            case "parameter" -> PARAMETER;
            case "while" -> WHILE;
            case "call" -> CALL;
            case "conditional" -> CONDITIONAL;
            case "fusion" -> FUSION;
            case "tuple" -> TUPLE;
            case "get-tuple-element" -> GET_TUPLE_ELEMENT;
            case "copy" -> COPY;
            case "copy-start" -> COPY_START;
            case "copy-done" -> COPY_DONE;
            case "bitcast", "add-dependency", "opt-barrier", "optimization-barrier" -> FORWARD;
            case "domain" -> DOMAIN;
            default -> OTHER;
        };
    }
}
