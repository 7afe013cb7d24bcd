/**
 * Reads an HTTP `Retry-After` value as a wait in milliseconds: either delay-seconds
 * (`"2"` → 2000) or an HTTP date (the time left until then, never negative). Returns
 * `undefined` when the header is absent or unreadable, so the caller falls back to its
 * own backoff. Caps are the caller's business (see `RetryOptions.maxRetryAfterMs`).
 *
 * @param value  the header value, or `null` when absent
 * @param nowMs  the current time in epoch milliseconds (injectable for tests)
 *
 * @example
 * parseRetryAfter("2", 0); // 2000
 * parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("Wed, 21 Oct 2015 07:27:58 GMT")); // 2000
 * parseRetryAfter("soon", 0); // undefined
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only accept something that looks like an HTTP date, so "1.5" or "-3" are not read as years.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
