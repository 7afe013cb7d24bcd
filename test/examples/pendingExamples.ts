/**
 * Files under src/ whose `@example`s test/examples.test.ts skips, because their area is being
 * rewritten on another branch (the event-time engine: src/kernels, src/operators,
 * src/analyze.ts; src/sim; src/sales) and fixing the examples here would conflict with it.
 * Named one by one, never by wildcard, each with what fails; remove an entry once its examples
 * run. Only files in those areas may be listed (the examples test checks it).
 */
export const PENDING_EXAMPLES: readonly string[] = [
  // free variables no fixture gives (sessionStart/sessionEnd, summaries `a` and `b`)
  "kernels/ProximityTracker.ts",
  // the example says RangeError, visitClassifierOptions throws TypeError for a non-number visitorRssi
  "kernels/VisitClassifier.ts",
  // free variables `lastSignalTime`, `visitors`, `shop`
  "kernels/ZoneOccupancy.ts",
  // `sessions.stats.late`: `sessions` is meant as a SessionTracker there
  "kernels/dataQuality.ts",
  // free variable `score`
  "kernels/scoreAgainstTruth.ts",
  // checks a placeholder: `// "sha256:…"`
  "sales/hashSalesRecord.ts",
  // free variable `days`
  "sales/memoryJournal.ts",
  // reads a sales.csv without a brand column and gives no brand option
  "sales/uploadDailySales.ts",
  // checks a placeholder: `// ".../sales.json"`, and a free variable `dataDir`
  "sim/SalesStore.ts",
  // `sim` is meant as a SimHandler there (`sim.handlePart`)
  "sim/createSimHandler.ts",
  // checks `console.log(…)` against a URL with a fixed port
  "sim/startSimulator.ts",
];

/** The areas whose files may be pending (being rewritten elsewhere). */
export const PENDING_AREAS: readonly string[] = ["kernels", "operators", "analyze.ts", "sim", "sales"];
