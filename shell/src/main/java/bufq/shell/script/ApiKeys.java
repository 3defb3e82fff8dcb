package bufq.shell.script;

import java.util.List;

/**
 * The members of the objects scripts see, in one place: the objects answer with them, and error
 * messages name them ("did you mean") without reaching for the objects themselves.
 */
final class ApiKeys {
    private ApiKeys() {}

    /** Members of the {@code bufq} global. */
    static final List<String> BUFQ = List.of("module", "query", "why", "field", "tiling", "check", "rule", "category", "whatif", "oom", "forecast", "advise", "format", "version");

    /** Members of {@code bufq.module}. */
    static final List<String> MODULE = List.of("handle", "name", "backend", "values", "allocations",
            "instructions", "steps", "peak", "value", "allocation", "instruction", "query", "note");
}
