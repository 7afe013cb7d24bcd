import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * A stored signal cursor (checkpoint) could not be read or written: the file is not the
 * JSON a cursor store writes, or the file system refused. `path` names the file.
 *
 * @example
 * const e = new CheckpointError("/tmp/cp.json", "not valid JSON");
 * e.message; // "checkpoint /tmp/cp.json: not valid JSON"
 */
export class CheckpointError extends FootfallError {
  override name = "CheckpointError";
  /** The checkpoint file (or store name) concerned. */
  readonly path: string;

  constructor(path: string, reason: string, options?: { cause?: unknown }) {
    super(`checkpoint ${path}: ${reason}`, options);
    this.path = path;
  }
}

/**
 * True when `value` is a {@link CheckpointError}.
 *
 * @example
 * isCheckpointError(new CheckpointError("cp.json", "bad")); // true
 */
export const isCheckpointError = errorGuard(CheckpointError, "CheckpointError");
