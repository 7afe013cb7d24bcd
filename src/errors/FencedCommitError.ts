import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * A worker tried to commit results for work that another worker has claimed since (its job's
 * lock expired while it was paused, and the job ran again elsewhere). The commit was rolled back:
 * the newer claim's results stand. `epoch` is the claim the stale worker held, `current` the
 * newest one.
 *
 * @example
 * const e = new FencedCommitError("day-101-2026-11-16", 1, 2);
 * e.message; // "commit of day-101-2026-11-16 refused: claim 1 is stale (now 2)"
 */
export class FencedCommitError extends FootfallError {
  override name = "FencedCommitError";
  /** What the commit was for (a job id). */
  readonly work: string;
  /** The stale worker's claim. */
  readonly epoch: number;
  /** The newest claim when the commit was refused. */
  readonly current: number;

  constructor(work: string, epoch: number, current: number) {
    super(`commit of ${work} refused: claim ${epoch} is stale (now ${current})`);
    this.work = work;
    this.epoch = epoch;
    this.current = current;
  }
}

/**
 * True when `value` is a {@link FencedCommitError}.
 *
 * @example
 * isFencedCommitError(new FencedCommitError("tail-101", 1, 2)); // true
 */
export const isFencedCommitError = errorGuard(FencedCommitError, "FencedCommitError");
