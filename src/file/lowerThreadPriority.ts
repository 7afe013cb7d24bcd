import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/** The nice value a thread doing background work takes: the kernel then gives a busy core to the others ~9 times in 10. */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's scheduling priority to `nice` (Linux nice value, 0…19; higher is
 * lower), for a thread whose work no longer holds anything up while another thread's does — a
 * decode thread writing the session lines while the engine's thread closes the day. On two
 * cores that tail ran 370 ms with the engine's thread on a core only ~270 ms of it: the line
 * writer and V8's helper threads took the rest. Only Linux can renice one thread (its id from
 * `/proc/thread-self`; elsewhere `setpriority` on that id would renice the whole process), so
 * elsewhere, or where the kernel refuses, nothing changes. Returns whether the priority was set.
 *
 * @example
 * // in a worker thread, once its part on the critical path is done:
 * lowerThreadPriority(); // true on Linux
 */
export function lowerThreadPriority(nice: number = BACKGROUND_NICE): boolean {
  if (!Number.isInteger(nice) || nice < 0 || nice > 19) throw new RangeError(`lowerThreadPriority: nice must be a whole number from 0 to 19, got ${String(nice)}`);
  if (process.platform !== "linux") return false;
  try {
    // "<pid>/task/<tid>": the calling thread's id, which setpriority takes on Linux.
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isSafeInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false; // no /proc, or a kernel (a container's seccomp) that refuses: run as before
  }
}
