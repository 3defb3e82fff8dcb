package bufq.dump.text;

/** What the reader takes from an instruction's {@code metadata={...}} ({@link InstructionLine#metadata} reads it). */
record OpMetadata(String opName, String sourceFile, int sourceLine) {
    static final OpMetadata NONE = new OpMetadata(null, null, -1);
}
