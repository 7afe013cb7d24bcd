import type { RawSignal, SignalsResponse } from "../contract/rawSignal.ts";
import { ContractError } from "../errors/ContractError.ts";
import { describeMismatch as describe, isObject } from "./describeMismatch.ts";

/**
 * Checks a parsed signals page against the contract, record by record: `signals` is an
 * array of at most `limit` objects with `row_key`, `device_id`, `square_mac` strings,
 * integer `rssi` and `ts`, boolean `local`; `since`, when present, is a string. Only
 * types are checked here (a plain loop, no allocation unless something is wrong);
 * values (row_key shape, MAC syntax, rssi sign) are the codec's job, so one bad value
 * goes to the source's `invalid` channel instead of failing the page.
 *
 * Returns the same object typed; a missing or `null` `since` is filled with
 * `requestedSince` (the spec shows it echoing the request). Throws a
 * {@link ContractError} naming the first bad field, e.g. `signals[3].rssi`.
 *
 * @param limit           the `limit` that was requested; more records than this is a violation
 * @param requestedSince  the `since` that was sent (`""` when none)
 * @param url             included in the error message (must already be free of secrets)
 *
 * @example
 * const page = validateSignalsResponse({ signals: [], since: "0000019a8f3c2e10" }, 200, "0000019a8f3c2e10");
 * page.signals.length; // 0
 */
export function validateSignalsResponse(
  body: unknown,
  limit: number = Number.POSITIVE_INFINITY,
  requestedSince = "",
  url?: string,
): SignalsResponse {
  const opts = url === undefined ? undefined : { url };
  if (!isObject(body)) throw new ContractError("", "expected a JSON object", opts);
  const page = body as { signals?: unknown; since?: unknown };
  const signals = page.signals;
  if (!Array.isArray(signals)) throw new ContractError("signals", describe("an array", signals), opts);
  if (signals.length > limit) {
    throw new ContractError("signals", `expected at most ${limit} records (the requested limit), got ${signals.length}`, opts);
  }
  for (let i = 0; i < signals.length; i++) {
    const r = signals[i] as Partial<Record<keyof RawSignal, unknown>> | null;
    // One combined test per record on the fast path; the slow path finds the culprit.
    if (
      typeof r !== "object" ||
      r === null ||
      typeof r.row_key !== "string" ||
      typeof r.device_id !== "string" ||
      typeof r.square_mac !== "string" ||
      typeof r.local !== "boolean" ||
      !Number.isInteger(r.rssi) ||
      !Number.isInteger(r.ts)
    ) {
      throw recordError(r, i, opts);
    }
  }
  if (page.since == null) (page as { since: string }).since = requestedSince;
  else if (typeof page.since !== "string") throw new ContractError("since", describe("a string", page.since), opts);
  return page as SignalsResponse;
}

function recordError(r: unknown, i: number, opts: { url: string } | undefined): ContractError {
  const at = `signals[${i}]`;
  if (!isObject(r)) return new ContractError(at, describe("an object", r), opts);
  const rec = r as Record<string, unknown>;
  for (const key of ["row_key", "device_id"] as const) {
    if (typeof rec[key] !== "string") return new ContractError(`${at}.${key}`, describe("a string", rec[key]), opts);
  }
  if (!Number.isInteger(rec.rssi)) return new ContractError(`${at}.rssi`, describe("an integer", rec.rssi), opts);
  if (typeof rec.square_mac !== "string") return new ContractError(`${at}.square_mac`, describe("a string", rec.square_mac), opts);
  if (!Number.isInteger(rec.ts)) return new ContractError(`${at}.ts`, describe("an integer", rec.ts), opts);
  return new ContractError(`${at}.local`, describe("a boolean", rec.local), opts);
}
