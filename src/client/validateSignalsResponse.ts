import type { SignalsResponse } from "../contract/rawSignal.ts";
import { ContractError } from "../errors/ContractError.ts";
import { describeMismatch as describe, isObject } from "./describeMismatch.ts";

/**
 * Checks a parsed signals page against the contract as a page: an object whose `signals` is an
 * array of at most `limit` records (`null` reads as no records: a serialiser's empty list, as Go
 * writes a nil slice), and whose `since`, when present, is a string. The records themselves are
 * not judged here: one record the service got wrong (a field missing, `null` or of another type,
 * a bad `row_key`) is the decoder's to reject, so the source reports it through its one
 * invalid-record channel and reads on, instead of failing the whole page and every page after.
 *
 * Returns the same object typed; a missing or `null` `since` is filled with `requestedSince`
 * (the spec shows it echoing the request). Throws a {@link ContractError} naming the bad field.
 *
 * @param limit           the `limit` that was requested; more records than this is a violation
 * @param requestedSince  the `since` that was sent (`""` when none)
 * @param url             included in the error message (must already be free of secrets)
 *
 * @example
 * const page = validateSignalsResponse({ signals: [], since: "0000019a8f3c2e10" }, 200, "0000019a8f3c2e10");
 * page.signals.length;                                    // 0
 * validateSignalsResponse({ signals: null }).signals;     // []
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
  if (page.signals === null) page.signals = [];
  const signals = page.signals;
  if (!Array.isArray(signals)) throw new ContractError("signals", describe("an array", signals), opts);
  if (signals.length > limit) {
    throw new ContractError("signals", `expected at most ${limit} records (the requested limit), got ${signals.length}`, opts);
  }
  if (page.since == null) (page as { since: string }).since = requestedSince;
  else if (typeof page.since !== "string") throw new ContractError("since", describe("a string", page.since), opts);
  return page as SignalsResponse;
}
