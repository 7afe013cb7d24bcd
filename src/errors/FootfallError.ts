/**
 * Base class of every error footfall throws or reports. Catch this to catch them all;
 * each subclass has its own `name` and an `isXxx` guard that also works across
 * duplicate copies of the package (it checks `name`, not only the prototype).
 *
 * Messages never contain the account token; e-mails are masked.
 *
 * @example
 * try { await client.listBrands(); } catch (e) { if (isFootfallError(e)) console.error(e.message); }
 */
export class FootfallError extends Error {
  override name = "FootfallError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * True when `value` is any footfall error.
 *
 * @example
 * isFootfallError(new FootfallError("x")); // true
 */
export function isFootfallError(value: unknown): value is FootfallError {
  return value instanceof FootfallError;
}

/**
 * Builds an `isXxx` guard: `instanceof` first, then the `name` tag, so a guard from one
 * copy of the package recognises an error thrown by another.
 *
 * @example
 * const isMyError = errorGuard(FootfallError, "FootfallError");
 */
export function errorGuard<T extends Error>(
  ctor: abstract new (...args: never[]) => T,
  name: string,
): (value: unknown) => value is T {
  return (value: unknown): value is T => value instanceof ctor || (value instanceof Error && value.name === name);
}
