/**
 * `npm run check:report [-- REPORT.html [--png OUT.png]]`: renders a footfall HTML report in
 * Debian's headless chromium and fails when the page logs an error, throws, or requests anything
 * that is not the page itself. Writes a full-page PNG (default: beside the report, `report.png`).
 *
 * Without a report argument it first makes one with a short, fast `footfall demo` (2 shops, a
 * 4-hour day, high speed) in a temp folder, and keeps the picture as
 * `$TMPDIR/footfall-report-check.png`, using the built CLI (`npm run build`, which `npm
 * install` runs; FOOTFALL_CLI=path/to/main.js picks another build).
 *
 * Chromium is driven over `--remote-debugging-pipe` (the DevTools protocol on fds 3 and 4), so no
 * WebSocket library, port or log scraping is needed: console errors, uncaught exceptions, log
 * entries (failed loads, CSP violations) and every network request are reported as events.
 * If /usr/bin/chromium is missing it is installed with apt-get (needs root, as in CI).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const CHROMIUM = "/usr/bin/chromium";
const VIEWPORT = { width: 1440, height: 900 };
const TIMEOUT_MS = 90_000;

interface CdpMessage {
  readonly id?: number;
  readonly method?: string;
  readonly sessionId?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly message: string };
}

async function main(): Promise<number> {
  const t0 = performance.now();
  const args = process.argv.slice(2);
  const pngAt = args.indexOf("--png");
  const pngArg = pngAt >= 0 ? args[pngAt + 1] : undefined;
  const positional = args.filter((a, i) => a !== "--png" && (pngAt < 0 || i !== pngAt + 1));
  let report = positional[0];
  let scratch: string | undefined;
  if (report === undefined) {
    scratch = mkdtempSync(join(tmpdir(), "footfall-check-"));
    report = join(scratch, "report.html");
    const demo = spawnSync(
      process.execPath,
      [process.env["FOOTFALL_CLI"] ?? "dist/cli/main.js", "demo", "--shops", "2", "--hours", "10-14", "--speed", "20000", "--out", scratch],
      { stdio: ["ignore", "ignore", "inherit"], timeout: 180_000 },
    );
    if (demo.status !== 0) {
      console.error(`check:report: footfall demo failed (exit ${demo.status ?? demo.signal}); run npm run build first`);
      return 1;
    }
  }
  report = resolve(report);
  if (!existsSync(report)) {
    console.error(`check:report: no such file: ${report}`);
    return 2;
  }
  const png = resolve(pngArg ?? join(dirname(report), "report.png"));
  const tReport = performance.now();

  ensureChromium();
  const tInstall = performance.now();
  const problems = await render(report, png);
  const tRender = performance.now();
  const size = existsSync(png) ? statSync(png).size : 0;
  let shown = png;
  if (scratch !== undefined && problems.length === 0 && pngArg === undefined) {
    // Keep the picture of a generated report where people can look at it.
    shown = join(tmpdir(), "footfall-report-check.png");
    writeFileSync(shown, readFileSync(png));
  }
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });

  const timing =
    `report ${((tReport - t0) / 1000).toFixed(1)} s, chromium check ${((tInstall - tReport) / 1000).toFixed(1)} s, ` +
    `render ${((tRender - tInstall) / 1000).toFixed(1)} s, total ${((tRender - t0) / 1000).toFixed(1)} s`;
  if (problems.length > 0) {
    for (const p of problems) console.error(`check:report: ${p}`);
    console.error(`check:report: FAILED (${timing})`);
    return 1;
  }
  console.error(`check:report: ok, ${shown} ${Math.round(size / 1024)} KiB, no console errors, no requests (${timing})`);
  return 0;
}

function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  console.error("check:report: installing Debian's chromium (apt-get)…");
  for (const cmd of [["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]]) {
    const r = spawnSync(cmd[0]!, cmd.slice(1), { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    if (r.status !== 0) throw new Error(`${cmd.join(" ")} failed (exit ${r.status ?? r.signal})`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} still missing after apt-get install chromium`);
}

/** Renders `report` to `png`; resolves to the problems found (empty = clean). */
async function render(report: string, png: string): Promise<string[]> {
  const profile = mkdtempSync(join(tmpdir(), "footfall-chromium-"));
  const child = spawn(
    CHROMIUM,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      "--hide-scrollbars",
      // Containers often have a tiny /dev/shm; chromium then crashes mid-render.
      "--disable-dev-shm-usage",
      `--user-data-dir=${profile}`,
      "--remote-debugging-pipe",
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const toChrome = child.stdio[3] as NodeJS.WritableStream;
  const fromChrome = child.stdio[4] as NodeJS.ReadableStream;

  const problems: string[] = [];
  const pageUrl = pathToFileURL(report).href;
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  const waiters: { method: string; resolve: () => void }[] = [];
  let exited: Error | undefined;

  const onEvent = (m: CdpMessage): void => {
    const p = m.params ?? {};
    switch (m.method) {
      case "Runtime.exceptionThrown": {
        const d = p["exceptionDetails"] as { text?: string; exception?: { description?: string } } | undefined;
        problems.push(`uncaught exception: ${d?.exception?.description ?? d?.text ?? "?"}`);
        break;
      }
      case "Runtime.consoleAPICalled": {
        const type = String(p["type"]);
        if (type === "error" || type === "assert" || type === "warning") {
          const text = ((p["args"] as { value?: unknown; description?: string }[] | undefined) ?? []).map((a) => String(a.value ?? a.description ?? "")).join(" ");
          problems.push(`console.${type}: ${text}`);
        }
        break;
      }
      case "Log.entryAdded": {
        const e = p["entry"] as { level?: string; text?: string; url?: string } | undefined;
        if (e?.level === "error" || e?.level === "warning") problems.push(`browser log ${e.level}: ${e.text ?? ""}${e.url ? ` (${e.url})` : ""}`);
        break;
      }
      case "Network.requestWillBeSent": {
        const url = String((p["request"] as { url?: string } | undefined)?.url ?? "");
        // The page itself is the one request allowed; data: URLs are inline, not loads.
        if (url !== pageUrl && !url.startsWith("data:")) problems.push(`the page requested ${url}`);
        break;
      }
    }
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i]!.method === m.method) {
        waiters[i]!.resolve();
        waiters.splice(i, 1);
      }
    }
  };

  let buffer = "";
  fromChrome.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    let end: number;
    while ((end = buffer.indexOf("\0")) >= 0) {
      const m = JSON.parse(buffer.slice(0, end)) as CdpMessage;
      buffer = buffer.slice(end + 1);
      if (m.id !== undefined) {
        const w = pending.get(m.id);
        pending.delete(m.id);
        if (m.error) w?.reject(new Error(m.error.message));
        else w?.resolve(m.result ?? {});
      } else onEvent(m);
    }
  });
  child.on("exit", (code, signal) => {
    exited = new Error(`chromium exited (${code ?? signal})${stderr ? `: ${lastLines(stderr)}` : ""}`);
    for (const w of pending.values()) w.reject(exited);
    pending.clear();
  });

  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> => {
    if (exited) return Promise.reject(exited);
    const id = nextId++;
    toChrome.write(`${JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) })}\0`);
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  };
  const eventually = (method: string): Promise<void> => new Promise((resolve) => waiters.push({ method, resolve }));

  const timer = setTimeout(() => {
    problems.push(`timed out after ${TIMEOUT_MS / 1000} s`);
    child.kill("SIGKILL");
  }, TIMEOUT_MS);
  try {
    const { targetId } = (await send("Target.createTarget", { url: "about:blank" })) as { targetId: string };
    const { sessionId } = (await send("Target.attachToTarget", { targetId, flatten: true })) as { sessionId: string };
    await Promise.all(["Page.enable", "Runtime.enable", "Log.enable", "Network.enable"].map((m) => send(m, {}, sessionId)));
    await send("Emulation.setDeviceMetricsOverride", { ...VIEWPORT, deviceScaleFactor: 1, mobile: false }, sessionId);
    const loaded = eventually("Page.loadEventFired");
    const nav = (await send("Page.navigate", { url: pageUrl }, sessionId)) as { errorText?: string };
    if (nav.errorText) problems.push(`navigation failed: ${nav.errorText}`);
    await loaded;
    // Let layout settle and late console messages arrive.
    await new Promise((r) => setTimeout(r, 300));
    const metrics = (await send("Page.getLayoutMetrics", {}, sessionId)) as { cssContentSize?: { width: number; height: number } };
    const size = metrics.cssContentSize ?? VIEWPORT;
    const shot = (await send(
      "Page.captureScreenshot",
      { format: "png", captureBeyondViewport: true, clip: { x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height), scale: 1 } },
      sessionId,
    )) as { data: string };
    writeFileSync(png, Buffer.from(shot.data, "base64"));
    await send("Browser.close").catch(() => undefined);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once("exit", r));
      const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await gone;
      clearTimeout(kill);
    }
    rmSync(profile, { recursive: true, force: true });
  }
  return problems;
}

function lastLines(text: string): string {
  return text.trim().split("\n").filter((l) => !l.includes("dbus")).slice(-3).join(" | ");
}

main().then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    console.error(`check:report: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
