import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createSimHandler, type SimHandler, type SimPart, type SimulatorOptions } from "./createSimHandler.ts";
import type { World } from "../world/World.ts";

/**
 * Options of {@link startSimulator}: the simulator's, plus where to listen.
 *
 * @example
 * const options: StartSimulatorOptions = { port: 0, seed: 7, world: { shops: 1 } };
 */
export interface StartSimulatorOptions extends SimulatorOptions {
  /** Port of {base_url} (and {signal_url} unless `signalPort` is set); 0 = any free port. @default 0 */
  readonly port?: number;
  /** Separate port for {signal_url}; `undefined` serves both on `port`. @default undefined */
  readonly signalPort?: number | undefined;
  /** Interface to listen on. @default "127.0.0.1" */
  readonly host?: string;
}

/**
 * Defaults of {@link StartSimulatorOptions} (beyond the simulator's own).
 *
 * @example
 * defaultStartSimulatorOptions.host; // "127.0.0.1"
 */
export const defaultStartSimulatorOptions = { port: 0, host: "127.0.0.1" } as const;

/**
 * A simulator serving on loopback.
 *
 * @example
 * const sim = await startSimulator({ port: 0 });
 * sim.baseUrl.startsWith("http://127.0.0.1:"); // true (the port the OS gave, e.g. 54321)
 * await sim.close();
 */
export interface RunningSimulator {
  /** {base_url}: brands, shops, sales (and everything when not split). */
  readonly baseUrl: string;
  /** {signal_url}: signals; equals `baseUrl` unless `signalPort` was given. */
  readonly signalUrl: string;
  readonly email: string;
  /** Not enumerable, so it stays out of JSON and inspect output. */
  readonly token: string;
  readonly world: World;
  /** The socket-free handler behind the server. */
  readonly handler: SimHandler;
  /** Stops listening, drops open connections, waits for pending sales writes. */
  close(): Promise<void>;
}

/**
 * Starts the simulator on 127.0.0.1: a thin node:http adapter over {@link createSimHandler}.
 * Resolves once listening.
 *
 * @example
 * const sim = await startSimulator({ port: 0, world: { shops: 1 } });
 * const res = await fetch(`${sim.baseUrl}/api/v1/brands`, { headers: { "x-user-email": sim.email, "x-user-token": sim.token } });
 * await sim.close();
 */
export async function startSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  const port = options.port ?? defaultStartSimulatorOptions.port;
  const host = options.host ?? defaultStartSimulatorOptions.host;
  checkPort("port", port);
  if (options.signalPort !== undefined) checkPort("signalPort", options.signalPort);
  if (typeof host !== "string" || host === "") throw new TypeError("host must be a non-empty string");
  const handler = createSimHandler(options);
  const split = options.signalPort !== undefined;
  const servers: Server[] = [];
  try {
    const base = await listen(handler, split ? "base" : "all", port, host);
    servers.push(base);
    const signal = split ? await listen(handler, "signal", options.signalPort!, host) : base;
    if (split) servers.push(signal);
    const urlOf = (s: Server): string => {
      const a = s.address() as AddressInfo;
      return `http://${a.family === "IPv6" ? `[${a.address}]` : a.address}:${a.port}`;
    };
    const running = {
      baseUrl: urlOf(base),
      signalUrl: urlOf(signal),
      email: handler.email,
      world: handler.world,
      handler,
      close: async () => {
        await Promise.all(servers.map(closeServer));
        await handler.flush();
      },
    };
    Object.defineProperty(running, "token", { value: handler.token, enumerable: false });
    return running as RunningSimulator;
  } catch (error) {
    await Promise.all(servers.map(closeServer));
    throw error;
  }
}

function checkPort(name: string, port: number): void {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`${name} must be an integer 0…65535`);
}

function listen(handler: SimHandler, part: SimPart, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    respond(handler, part, req, res, host).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ error: `simulator failure: ${error instanceof Error ? error.message : String(error)}` }));
    });
  });
  // Clients keep connections alive between pages; close() drops them. Longer than a client's own
  // idle timeout (undici's fetch closes an idle socket after the server's hint less a second), so
  // the client, not the server, ends an idle connection: a server that drops it as the client
  // reuses it gives that request ECONNRESET, which fetch does not retry — likely when the process
  // is busy (a test analysing in the same event loop fires both timers late).
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

async function respond(handler: SimHandler, part: SimPart, req: IncomingMessage, res: ServerResponse, host: string): Promise<void> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? "GET";
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const chunks: Uint8Array[] = [];
    for await (const chunk of req) chunks.push(chunk as Uint8Array);
    body = concat(chunks);
  }
  const address = req.socket.localAddress ?? host;
  const authority = `${address.includes(":") ? `[${address}]` : address}:${req.socket.localPort ?? 0}`;
  const request = new Request(`http://${authority}${req.url ?? "/"}`, body === undefined ? { method, headers } : { method, headers, body });
  const response = await handler.handlePart(request, part);
  const text = new Uint8Array(await response.arrayBuffer());
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    out[key] = value;
  });
  out["content-length"] = String(text.byteLength);
  res.writeHead(response.status, out);
  res.end(text);
}

function concat(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let n = 0;
  for (const c of chunks) n += c.byteLength;
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
