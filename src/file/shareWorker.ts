// A share thread of a device split (`readInputInThreads` with `shares` above 1): an
// `AnalyzerShard` fed every signal of the input, in input order, as the engine's thread forwards
// the batches it applies; after each range it posts the sessions it closed, and at the end its
// last ones and its counters. Started by readInputInThreads, by URL: it stays beside
// readInputInThreads (here in src/file/, and as dist/file/shareWorker.js); not a public module.
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { AnalyzerShard, type AnalyzerShardOptions, type ShardSessionsMessage } from "../analysis/AnalyzerShard.ts";
import type { ShareTotals } from "../analysis/analyze.ts";
import { SignalBatchReader, type SignalBatch } from "./SignalBatch.ts";

/** What a share thread is started with. */
export interface ShareWorkerData {
  /** Marks the worker's data, so importing shareWorker.ts elsewhere does nothing. */
  readonly shareWorker: true;
  readonly share: number;
  readonly shares: number;
  readonly options: AnalyzerShardOptions;
  /** Where the thread takes its messages from and posts its own. */
  readonly port: MessagePort;
}

/**
 * What the engine's thread posts a share thread: each batch it applies, with the writer it came
 * from (`source`: each has its string tables), in input order; each range's end; the input's end.
 */
export type ToShareMessage =
  | { readonly type: "batch"; readonly source: number; readonly batch: SignalBatch }
  | { readonly type: "end"; readonly range: number }
  | { readonly type: "finish" };

/** What a share thread posts: each range's sessions, then the last ones with its counters. */
export type FromShareMessage =
  | { readonly type: "sessions"; readonly range: number; readonly run: ShardSessionsMessage }
  | {
      readonly type: "done";
      readonly run: ShardSessionsMessage;
      readonly late: number;
      readonly maxLateMs: number;
      readonly ahead: number;
      readonly quality: ShareTotals["quality"];
    };

function runShare(data: ShareWorkerData): void {
  const { share, shares, options, port } = data;
  const shard = new AnalyzerShard(options, share, shares);
  // One reader per writer; no vendors (the engine's thread gives the sessions theirs).
  const readers: SignalBatchReader[] = [];
  const owns = (device: string): boolean => shard.owns(device);
  const own = (s: Parameters<AnalyzerShard["pushOwn"]>[0]): void => shard.pushOwn(s);
  const tick = (shopId: number, sensor: string, time: number): void => shard.pushTick(shopId, sensor, time);
  port.on("message", (message: ToShareMessage) => {
    if (message.type === "batch") {
      (readers[message.source] ??= new SignalBatchReader(() => undefined)).readShare(message.batch, owns, own, tick);
    } else if (message.type === "end") {
      port.postMessage({ type: "sessions", range: message.range, run: AnalyzerShard.toMessage(shard.endRun()) } satisfies FromShareMessage);
    } else {
      const run = AnalyzerShard.toMessage(shard.flush());
      const { late, maxLateMs, ahead } = shard.stats;
      port.postMessage({ type: "done", run, late, maxLateMs, ahead, quality: shard.qualityPart } satisfies FromShareMessage);
      port.close();
    }
  });
}

if (parentPort !== null && (workerData as Partial<ShareWorkerData> | null)?.shareWorker === true) {
  runShare(workerData as ShareWorkerData);
}
