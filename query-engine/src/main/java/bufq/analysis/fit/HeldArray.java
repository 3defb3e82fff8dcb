package bufq.analysis.fit;

/**
 * An array a caller may hold after a program ran: one of its entry-parameter allocations or one
 * of its maybe-live-out allocations (a donated parameter the output reuses is one array). Named
 * {@code PROGRAM:ALLOCATION}, as {@code fit keep} and {@code drop} take it; {@code allocations where
 * index = ALLOCATION} in that module shows the row.
 *
 * @param role     {@code parameter N}, {@code output} or {@code parameter N, output} (donated)
 * @param category what it is in its program ({@link bufq.analysis.category.Categories}): a parameter's category
 *                 ({@code weights}, {@code optimizer}, {@code inputs}); a donated one's with {@code , new state};
 *                 an output's {@code outputs: new STATE} when it matches a parameter of that category not
 *                 donated, else {@code outputs: result}; null when unknown
 */
public record HeldArray(String program, int allocation, String role, String shape, long bytes, String category) {
    public String name() { return program + ":" + allocation; }
    public boolean isParameter() { return role.startsWith("parameter"); }
    public boolean isOutput() { return role.endsWith("output"); }
}
