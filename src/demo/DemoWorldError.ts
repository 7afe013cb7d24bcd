import { FootfallError, errorGuard } from "../errors/FootfallError.ts";

/**
 * The demo's world options are unusable (the simulator's `createWorld` rejected them, e.g.
 * `phones` with rotation `"off"`): a mistake in the settings, which the CLI reports as bad usage
 * (exit 2), not a failed day. The message is the simulator's.
 *
 * @example
 * const e = new DemoWorldError('phones has no effect with rotation "off"');
 * e.message; // 'phones has no effect with rotation "off"'
 */
export class DemoWorldError extends FootfallError {
  override name = "DemoWorldError";
}

/**
 * True when `value` is a {@link DemoWorldError}.
 *
 * @example
 * isDemoWorldError(new DemoWorldError("shops must be at least 1")); // true
 */
export const isDemoWorldError = errorGuard(DemoWorldError, "DemoWorldError");
