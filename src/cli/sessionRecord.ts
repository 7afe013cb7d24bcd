/**
 * The `session` line, re-exported for the CLI's other writers (the demo's `sessions.ndjson`);
 * its one implementation is in `src/analysis/analysisRecords.ts`, shared with the fleet.
 *
 * @example
 * for (const s of result.sessions) out.write(`${JSON.stringify(sessionRecord(s))}\n`);
 */
export { sessionRecord } from "../analysis/analysisRecords.ts";
