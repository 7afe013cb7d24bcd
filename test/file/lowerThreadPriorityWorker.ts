// A worker for test/file/lowerThreadPriority.test.ts: lowers its own priority to the nice value it
// is given and posts its priority before and after, what the call returned, and its thread id.
import { readlinkSync } from "node:fs";
import { getPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { lowerThreadPriority } from "../../src/file/lowerThreadPriority.ts";

const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
const before = getPriority(tid);
const set = lowerThreadPriority(workerData as number);
parentPort!.postMessage({ before, set, after: getPriority(tid), tid });
