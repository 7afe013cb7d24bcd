/**
 * Simulator serving speed: 200-record signal pages served by the socket-free handler
 * (`handle(new Request(…))` + `await res.text()`, i.e. routing, auth, binary search, JSON
 * bytes and the Response round trip) next to the rate a client can merely `JSON.parse` the
 * same page texts. The pages are a client's backfill (each `since` is the previous page's
 * last RTS). The row's figure is a handler that has served these pages before — what a
 * client benchmark meets on its timed runs after warm-up (the handler keeps encoded chunks,
 * 32 MiB ≈ one shop-day); the note adds a cold handler per run, which pays every record's
 * encoding. Goal: serving is at least as fast as parsing, so the simulator is never what
 * limits a client benchmark.
 *
 * Run alone: `npx tsx bench/sim.ts`.
 */
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { parseRowKey } from "../src/codec/rowKey.ts";
import { millisToRts } from "../src/codec/rts.ts";
import { createSimHandler, type SimHandler } from "../src/sim/service/createSimHandler.ts";
import { createWorld } from "../src/sim/createWorld.ts";
import { rate, timePair, timeRatio, type BenchRow } from "./lib.ts";

const PAGES = 300;
const LIMIT = 200;

/**
 * Measures served pages/s against JSON.parse pages/s on one default-sized shop-day.
 *
 * @example
 * const rows = await simBench();
 */
export default async function simBench(): Promise<BenchRow[]> {
  const t0 = performance.now();
  const world = createWorld({ shops: 1 });
  const buildMs = performance.now() - t0;
  const shop = world.shops[0]!;
  const table = world.signalTable(shop.id)!;
  const first = createSimHandler({ world });
  const headers = { "x-user-email": first.email, "x-user-token": first.token };
  // A backfill from 11:00 local: each page starts at the previous page's last RTS (inclusive).
  const urls: string[] = [];
  const texts: string[] = [];
  let since = millisToRts(world.startMs + 11 * 3_600_000);
  for (let i = 0; i < PAGES; i++) {
    const url = `http://sim.local/api/v1/shops/${shop.id}/wifi_signals?since=${since}&limit=${LIMIT}`;
    const text = await (await first.handle(new Request(url, { headers }))).text();
    urls.push(url);
    texts.push(text);
    const signals = (JSON.parse(text) as { signals: { row_key: string }[] }).signals;
    since = parseRowKey(signals[signals.length - 1]!.row_key).rts;
  }
  let bytes = 0;
  for (const t of texts) bytes += t.length;
  let sink = 0;

  const serveWith = async (sim: SimHandler): Promise<void> => {
    for (const url of urls) sink += (await (await sim.handle(new Request(url, { headers }))).text()).length;
  };
  const parse = (): void => {
    for (const text of texts) sink += (JSON.parse(text) as { signals: unknown[] }).signals.length;
  };
  const [s, p] = await timePair(() => serveWith(first), parse, { runs: 9, warmup: 3 });
  const [cs, cp] = await timePair(() => serveWith(createSimHandler({ world })), parse, { runs: 9, warmup: 3 });
  if (sink === 0) throw new Error("nothing measured");
  const served = (PAGES / s.median) * 1000;
  const parsed = (PAGES / p.median) * 1000;
  const ratio = timeRatio(p.samples, s.samples);
  const coldRatio = timeRatio(cp.samples, cs.samples);
  return [
    {
      figure: "Simulator pages served (200-record pages/s)",
      footfall: rate(served, "pages/s"),
      baseline: `${rate(parsed, "pages/s")} JSON.parse`,
      ratio: Number(ratio.toFixed(2)),
      goal: "≥ 1.0× parse rate",
      met: ratio >= 1,
      note:
        `${PAGES}-page backfill, ${Math.round(bytes / PAGES / 1024)} KiB/page; serve min ${s.min.toFixed(0)} / median ${s.median.toFixed(0)} ms, ` +
        `parse min ${p.min.toFixed(0)} / median ${p.median.toFixed(0)} ms; cold handler ${rate((PAGES / cs.median) * 1000, "pages/s")} = ${coldRatio.toFixed(2)}× parse; ` +
        `shop-day of ${table.count} signals built in ${Math.round(buildMs)} ms`,
    },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await simBench());
}
