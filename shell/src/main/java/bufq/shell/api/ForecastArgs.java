package bufq.shell.api;

import bufq.api.ForecastRequest;

import java.util.List;

/**
 * What {@code forecast} and {@code bufq.forecast(text)} take, declared once: one grammar of three
 * forms, read into the engine's {@link ForecastRequest}.
 */
public final class ForecastArgs {
    private ForecastArgs() {}

    /** {@code forecast [DIM] at N [limit K] | forecast [DIM] fit [at N] | forecast chips (at N | fit)}. */
    public static final ArgGrammar GRAMMAR = ArgGrammar.forms(
            ArgGrammar.of("forecast").positional("DIM", ArgKind.TEXT).optional()
                    .count("at", 1, Long.MAX_VALUE).required().count("limit", -1).as("K"),
            ArgGrammar.of("forecast").positional("DIM", ArgKind.TEXT).optional().flag("fit").required()
                    .count("at", 1, Long.MAX_VALUE),
            ArgGrammar.of("forecast").positionalChoice("chips", List.of("chips"), List.of())
                    .oneOf(true, g -> g.count("at", 1, Long.MAX_VALUE).flag("fit")));

    /** {@code text}, the words after {@code forecast}, as a request; an error under the word at fault. */
    public static ForecastRequest request(String text) throws ArgumentError {
        ParsedArgs a = GRAMMAR.parse(CommandPlan.statement(text));
        long n = a.has("at") ? a.longCount("at").getAsLong() : -1;
        if (a.has("chips")) return new ForecastRequest(null, a.has("fit"), n, ForecastRequest.LIMIT, true);
        int limit = a.has("limit") ? a.count("limit").getAsInt() : ForecastRequest.LIMIT;
        return new ForecastRequest(a.text("DIM"), a.has("fit"), n, limit, false);
    }
}
