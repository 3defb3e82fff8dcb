package bufq.analysis.advise;

import bufq.lang.QueryException;

import java.util.List;

/**
 * One kind of advice. A rule looks at the module through {@link Facts} and proposes changes as
 * {@code whatif} edits; {@link Advisor} measures each with the what-if engine, so a rule never
 * estimates the bytes it saves. Add a rule by writing a class and listing it in {@link Rules}.
 */
public interface Rule {
    /** Short name shown in the report ({@code big-buffer}). */
    String name();

    /** What it looks for, for {@code help advise}. */
    String description();

    /** @throws RuleFailure when a rule a user wrote (a script's) fails; the message is meant to be shown as is */
    List<Advice> find(Facts facts) throws QueryException;

    /** A user-written rule failed. */
    final class RuleFailure extends RuntimeException {
        public RuleFailure(String message) { super(message, null, false, false); }
    }
}
