import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * A fleet setting is unusable: a malformed Redis or PostgreSQL URL, a server that cannot be
 * reached, or a database whose footfall schema is missing or of another version. The message
 * names the setting and the server with any password replaced by `***`; the CLI prints it as one
 * line and exits 2.
 *
 * @example
 * const e = new FleetSettingsError("--database", "cannot reach postgres://app:***@db:5432/footfall (ECONNREFUSED)");
 * e.message; // "--database: cannot reach postgres://app:***@db:5432/footfall (ECONNREFUSED)"
 */
export class FleetSettingsError extends FootfallError {
  override name = "FleetSettingsError";
  /** The setting concerned: `"--redis"`, `"--database"`, or `"schema"`. */
  readonly setting: string;

  constructor(setting: string, reason: string, options?: { cause?: unknown }) {
    super(`${setting}: ${reason}`, options);
    this.setting = setting;
  }
}

/**
 * True when `value` is a {@link FleetSettingsError}.
 *
 * @example
 * isFleetSettingsError(new FleetSettingsError("--redis", "bad URL")); // true
 */
export const isFleetSettingsError = errorGuard(FleetSettingsError, "FleetSettingsError");
