/**
 * A detached copy of a platform error (and up to three levels of its `cause` chain) that
 * is safe to attach as `cause`: only `name`, a redacted `message` and a string `code`
 * survive. Platform and injected `fetch` errors may reference the request, its headers
 * (with the token) or a socket; none of that is copied. The stack is reduced to its first
 * line, since the frames are inside the platform's HTTP stack anyway.
 *
 * @param redact  removes secrets from the message text (see `createRedactor`)
 *
 * @example
 * const safe = sanitizeCause(new TypeError("fetch failed", { cause: new Error("ECONNREFUSED") }), (s) => s);
 * safe.message; // "fetch failed"
 */
export function sanitizeCause(error: unknown, redact: (text: string) => string, depth = 0): Error {
  const isError = error instanceof Error;
  const name = isError ? error.name : "Error";
  // Never String() an unknown object: its toString could print anything it holds.
  const message = redact(isError ? error.message : typeof error === "string" ? error : `non-error value (${typeof error})`);
  const inner = isError && error.cause !== undefined && depth < 3 ? sanitizeCause(error.cause, redact, depth + 1) : undefined;
  const copy = new Error(message, inner === undefined ? undefined : { cause: inner });
  copy.name = name;
  copy.stack = `${name}: ${message}`;
  const code = isError ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string") Object.defineProperty(copy, "code", { value: code, enumerable: true });
  return copy;
}
