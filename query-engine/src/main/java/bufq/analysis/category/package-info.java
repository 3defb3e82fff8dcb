/**
 * What the memory is: every value of a module in one category (weights, optimizer state, inputs,
 * gathered weights, outputs, residuals, recomputed, gradients, cotangents, collectives, constants,
 * temporaries), by the built-in rules (the program's dataflow: {@code ValueGraph},
 * phases, parameter roles and lineage) or a user's, and the reports built on them ({@code blame by category}, {@code blame by path}).
 * {@link bufq.analysis.category.Categories} is the entry; it depends on {@code model}, {@code liveness} and
 * {@code table} only, so the query language's {@code category} field and the analyses both read it.
 */
package bufq.analysis.category;
