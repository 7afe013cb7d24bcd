import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * A response did not match the service's interface: not JSON, a missing key, a field of
 * the wrong type, or records out of order. `path` names the bad field, e.g. `signals[3].rssi`.
 *
 * @example
 * const e = new ContractError("signals[3].rssi", "expected an integer");
 * e.message; // "response field signals[3].rssi: expected an integer"
 */
export class ContractError extends FootfallError {
  override name = "ContractError";
  /** JSON path of the offending field (`""` for the whole body). */
  readonly path: string;

  constructor(path: string, reason: string, options?: { cause?: unknown; url?: string }) {
    super(`response ${path === "" ? "body" : `field ${path}`}: ${reason}${options?.url ? ` (${options.url})` : ""}`, options);
    this.path = path;
  }
}

/**
 * True when `value` is a {@link ContractError}.
 *
 * @example
 * isContractError(new ContractError("brands", "missing")); // true
 */
export const isContractError = errorGuard(ContractError, "ContractError");
