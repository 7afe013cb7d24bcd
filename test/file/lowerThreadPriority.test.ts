import { readlinkSync } from "node:fs";
import { getPriority } from "node:os";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { BACKGROUND_NICE, lowerThreadPriority } from "../../src/file/lowerThreadPriority.ts";
import { sourceWorkerUrl } from "../../src/file/workerUrl.ts";

/** Runs `lowerThreadPriority(nice)` in a new worker thread; its priority before and after, and what it returned. */
async function inWorker(nice: number): Promise<{ before: number; set: boolean; after: number; tid: number }> {
  const worker = new Worker(sourceWorkerUrl(new URL("./lowerThreadPriorityWorker.ts", import.meta.url)), { workerData: nice });
  try {
    return await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe("lowerThreadPriority", () => {
  it.runIf(process.platform === "linux")("renices the calling thread only, not the process's other threads", async () => {
    const mine = Number(readlinkSync("/proc/thread-self").split("/").pop());
    const before = { thread: getPriority(mine), process: getPriority(process.pid) };
    const nice = Math.min(19, Math.max(BACKGROUND_NICE, before.thread + 1));
    const r = await inWorker(nice);
    expect(r.set).toBe(true);
    expect(r.after).toBe(nice);
    expect(r.tid).not.toBe(mine);
    // This thread and the process's main thread keep theirs.
    expect({ thread: getPriority(mine), process: getPriority(process.pid) }).toEqual(before);
  });

  it("takes a nice value from 0 to 19 only", () => {
    for (const bad of [-1, 20, 1.5, Number.NaN]) expect(() => lowerThreadPriority(bad)).toThrow(RangeError);
  });

  it.runIf(process.platform !== "linux")("does nothing where a thread cannot be reniced alone", () => {
    expect(lowerThreadPriority()).toBe(false);
  });
});
