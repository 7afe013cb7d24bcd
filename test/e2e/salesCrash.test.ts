import { expect, test } from "vitest";
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSimHandler, type SimHandler } from "../../src/sim/createSimHandler.ts";
import type { SalesStatsDaily } from "../../src/contract/salesStatsDaily.ts";
import { main } from "../../src/cli/main.ts";
import { PassThrough } from "node:stream";
import { salesFixture } from "../sales/salesFixture.ts";

const WORLD = { seed: 11, brands: 2, shops: 4, days: 1, visitorsPerDay: 5, passersByPerDay: 5, staffPerShop: 1, stationaryPerShop: 0 } as const;
const MAIN = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

/** Serves the simulator handler on loopback and calls `onPost` after each acknowledged POST is sent. */
async function serve(sim: SimHandler, onPost: (count: number) => void): Promise<{ url: string; server: Server }> {
  let acknowledged = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const init: RequestInit = { method: req.method ?? "GET", headers };
      if (req.method === "POST") init.body = Buffer.concat(chunks);
      const response = await sim.handle(new Request(`http://sim${req.url ?? "/"}`, init));
      const body = Buffer.from(await response.arrayBuffer());
      const out: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        out[key] = value;
      });
      res.writeHead(response.status, out);
      res.end(body, () => {
        if (req.method === "POST" && response.status < 300) onPost(++acknowledged);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function stored(sim: SimHandler, shopId: number): Promise<SalesStatsDaily[]> {
  const res = await sim.fetch(`http://sim/api/v1/shops/${shopId}/sales_stats_dailies`, { headers: { "x-user-email": sim.email, "x-user-token": sim.token } });
  return ((await res.json()) as { sales_stats_dailies: SalesStatsDaily[] }).sales_stats_dailies;
}

test("the CLI killed (SIGKILL) after 3 uploads, then run again: every day stored once, journal complete", async () => {
  const dir = await mkdtemp(join(tmpdir(), "footfall-sales-crash-"));
  // latency keeps the run going long enough for the kill to land in the middle of it
  const sim = createSimHandler({ world: WORLD, faults: { latencyMs: 40 } });
  const { csv, expected, shopDays } = salesFixture(sim);
  const file = join(dir, "tx.csv");
  await writeFile(file, csv);
  let child: ReturnType<typeof spawn> | undefined;
  let killedAt = -1;
  let acknowledged = 0;
  const { url, server } = await serve(sim, (count) => {
    acknowledged = count;
    if (count === 3 && child !== undefined) {
      killedAt = count;
      child.kill("SIGKILL");
    }
  });
  try {
    const env = { ...process.env, FOOTFALL_BASE_URL: url, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token };
    child = spawn(process.execPath, ["--import", "tsx", MAIN, "sales", "upload", file, "--concurrency", "1"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => child!.on("exit", (code, signal) => resolve({ code, signal })));
    expect(exit.signal, stderr).toBe("SIGKILL");
    expect(killedAt).toBe(3);

    // What survived the crash is a complete journal (atomic rename) with at most the acknowledged days.
    const afterCrash = JSON.parse(await readFile(`${file}.journal.json`, "utf8").catch(() => '{"services":{}}'));
    const journaled = Object.keys(afterCrash.services[url] ?? {});
    expect(journaled.length).toBeLessThanOrEqual(3);

    const out = new PassThrough();
    const err = new PassThrough();
    let text = "";
    out.on("data", (c: Buffer) => (text += c.toString()));
    const status = await main(["sales", "upload", file, "--format", "ndjson"], {
      stdout: out,
      stderr: err,
      env: { FOOTFALL_BASE_URL: url, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token },
      signal: new AbortController().signal,
    });
    expect(status).toBe(0);
    const rows = text.trim().split("\n").map((l) => JSON.parse(l) as { status: string });
    expect(rows).toHaveLength(shopDays);
    expect(rows.filter((r) => r.status === "unchanged")).toHaveLength(journaled.length);
    expect(rows.filter((r) => r.status === "uploaded")).toHaveLength(shopDays - journaled.length);

    for (const [shopId, days] of expected) expect(await stored(sim, shopId)).toEqual(days);
    const journal = JSON.parse(await readFile(`${file}.journal.json`, "utf8"));
    expect(Object.keys(journal.services[url])).toHaveLength(shopDays);
    // Only days acknowledged but not yet journaled when the process died were posted twice
    // (plus at most one request that may have been on the wire at the moment of the kill).
    expect(acknowledged).toBeGreaterThanOrEqual(shopDays);
    expect(acknowledged).toBeLessThanOrEqual(shopDays + (3 - journaled.length) + 1);
  } finally {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await rm(dir, { recursive: true, force: true });
  }
});
