/**
 * Files under src/ whose `@example`s test/examples.test.ts skips, because their area is being
 * rewritten on another branch (the event-time engine: src/kernels, src/operators,
 * src/analysis; src/sim; src/sales) and fixing the examples here would conflict with it.
 * Named one by one, never by wildcard, each with what fails; remove an entry once its examples
 * run. Only files in those areas may be listed (the examples test checks it).
 */
export const PENDING_EXAMPLES: readonly string[] = [];

/** The areas whose files may be pending (being rewritten elsewhere). */
export const PENDING_AREAS: readonly string[] = ["kernels", "operators", "analysis", "sim", "sales"];
