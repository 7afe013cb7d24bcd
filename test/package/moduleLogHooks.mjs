// Module-loader hooks (run on Node's loader thread, registered by recordModules.mjs): append
// every URL an ESM import resolves to, built-ins included ("node:fs"), to the log file.
import { appendFileSync } from "node:fs";

let log = "";

/** Receives the log path from `register(…, { data })`. */
export function initialize(data) {
  log = data.log;
}

/** Resolves as usual (through tsx's hook when present) and records the result. */
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(log, `${result.url}\n`);
  return result;
}
