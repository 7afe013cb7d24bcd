import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HEADER_EMAIL, HEADER_TOKEN, pathPatterns } from "../../src/contract/paths.ts";
import type { SimHandler } from "../../src/sim/service/createSimHandler.ts";

/**
 * A signal service for benchmarks that measure the *client* side (the fleet's workers): every
 * page is answered once by the simulator and then replayed byte for byte from memory.
 *
 * Why: on a 2-core machine the simulator, serving a page per request (routing, encoding, a
 * `Request`/`Response` pair), costs about two thirds of a worker's CPU per shop-day and competes
 * with the workers it serves, so a fleet bench ends up measuring the simulator. Replaying keeps
 * the page/cursor contract in its one implementation (`createSimHandler`): a URL never seen is
 * forwarded to the simulator and its answer recorded, so a replayed page is exactly what the
 * simulator says for that `since` and `limit`. Only successful signal pages are recorded (no
 * faults: build the simulator without them); anything else is forwarded every time.
 *
 * @example
 * const replay = await startPageReplay(createSimHandler({ seed: 21, world: { shops: 2 } }));
 * // Record: walk each shop-day once with the client the workers use (untimed) …
 * const client = createClient({ baseUrl: replay.signalUrl, signalUrl: replay.signalUrl, email: replay.email, token: replay.token });
 * // … then point the workers at replay.signalUrl; replay.stats().forwarded stays put while they run.
 * await replay.close();
 */
export interface PageReplay {
  /** `http://127.0.0.1:PORT`: {signal_url} (signals only; brands and sales are not served). */
  readonly signalUrl: string;
  /** The account the simulator expects. */
  readonly email: string;
  readonly token: string;
  /** Requests answered from memory, forwarded to the simulator, and bytes recorded so far. */
  stats(): { readonly replayed: number; readonly forwarded: number; readonly recordedBytes: number; readonly pages: number };
  /** Stops listening and drops the recorded pages. */
  close(): Promise<void>;
}

/**
 * Options of {@link startPageReplay}.
 *
 * @example
 * const o: PageReplayOptions = { latencyMs: 5 }; // as a service 5 ms away
 */
export interface PageReplayOptions {
  /** Delay before each replayed page, ms: a remote service's round trip, without its CPU. @default 0 */
  readonly latencyMs?: number;
}

interface Recorded {
  readonly body: Buffer;
  readonly headers: Record<string, string>;
}

/**
 * Starts a {@link PageReplay} in front of `handler` on 127.0.0.1 (any free port).
 *
 * @example
 * const replay = await startPageReplay(createSimHandler({ world: { shops: 1 } }));
 * await replay.close();
 */
export async function startPageReplay(handler: SimHandler, options: PageReplayOptions = {}): Promise<PageReplay> {
  const latencyMs = options.latencyMs ?? 0;
  if (!(latencyMs >= 0) || !Number.isFinite(latencyMs)) throw new RangeError("startPageReplay: latencyMs must be a non-negative number");
  const pages = new Map<string, Recorded>();
  let replayed = 0;
  let forwarded = 0;
  let recordedBytes = 0;
  const email = handler.email.toLowerCase();
  const token = handler.token;

  const server: Server = createServer((req, res) => {
    const url = req.url ?? "/";
    const page = req.method === "GET" ? pages.get(url) : undefined;
    // The same account check as the simulator's: a replay must not serve what it would refuse.
    if (page !== undefined && String(req.headers[HEADER_EMAIL] ?? "").trim().toLowerCase() === email && req.headers[HEADER_TOKEN] === token) {
      replayed++;
      const send = (): void => {
        res.writeHead(200, page.headers);
        res.end(page.body);
      };
      if (latencyMs > 0) setTimeout(send, latencyMs);
      else send();
      return;
    }
    forwarded++;
    forward(handler, req, res, url).then(
      (recorded) => {
        if (recorded !== undefined && !pages.has(url)) {
          pages.set(url, recorded);
          recordedBytes += recorded.body.byteLength;
        }
      },
      (error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ error: `replay failure: ${error instanceof Error ? error.message : String(error)}` }));
      },
    );
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const replay = {
    signalUrl: `http://127.0.0.1:${port}`,
    email: handler.email,
    stats: () => ({ replayed, forwarded, recordedBytes, pages: pages.size }),
    close: () =>
      new Promise<void>((resolve) => {
        pages.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  // Like the simulator's own: the token stays out of JSON and inspect output.
  Object.defineProperty(replay, "token", { value: token, enumerable: false });
  return replay as PageReplay;
}

/** Serves one request through the simulator; returns it for recording when it is a successful signal page. */
async function forward(handler: SimHandler, req: IncomingMessage, res: ServerResponse, url: string): Promise<Recorded | undefined> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  // Signal pages are GETs; anything with a body is answered by the simulator (405 or 404) without it.
  const response = await handler.handlePart(new Request(`http://127.0.0.1${url}`, { method: req.method ?? "GET", headers }), "signal");
  const body = Buffer.from(await response.arrayBuffer());
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    out[key] = value;
  });
  out["content-length"] = String(body.byteLength);
  res.writeHead(response.status, out);
  res.end(body);
  const path = url.split("?", 1)[0]!;
  const page = req.method === "GET" && response.status === 200 && !response.headers.has("x-sim-fault") && pathPatterns.wifiSignals.test(path);
  return page ? { body, headers: out } : undefined;
}
