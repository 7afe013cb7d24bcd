import { writeFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import type { WorldOptions } from "../sim/createWorld.ts";
import type { Range } from "../sim/phones/MacBehaviour.ts";
import { defaultSimulatorOptions, type FaultOptions } from "../sim/service/createSimHandler.ts";
import { SIGNALS_LIMIT_MAX } from "../contract/paths.ts";
import { isEpochUnit } from "../codec/inferEpochUnit.ts";
import { startSimulator, type StartSimulatorOptions } from "../sim/service/startSimulator.ts";
import { EXIT_OK, UsageError, integerFlag, numberFlag, parseFlags, readWorldFile, rotationFlag, seedFlag, type CliIo, type Command } from "./common.ts";

const help = `usage: footfall sim [flags]

Serves the whole service interface (brands, shop lookup, sales, signals) from a seeded
simulated world on 127.0.0.1, plus /__sim/world and
/__sim/truth?shop=ID&view=macs|visits|occupancy. Prints
"footfall sim listening on http://127.0.0.1:PORT" on stdout when ready; credentials and a
world summary go to stderr. Ctrl-C (SIGINT/SIGTERM) stops it.

  --port N            port of {base_url} (and {signal_url}); 0 = any free port (default 0)
  --signal-port N     serve {signal_url} on its own port
  --seed S            seed of the world and the faults (default 1)
  --world FILE        JSON WorldOptions (shops, brands, sensorsPerShop, wallLossDb, …)
  --start DATE        first day, YYYY-MM-DD (shop-local) or epoch ms (default 2026-11-16)
  --days N            days to simulate (default 1)
  --speed X           live mode: data appears as simulated time (X× real time from --start) reaches it
  --email E           account e-mail (default ${defaultSimulatorOptions.email})
  --token T           account token (default ${defaultSimulatorOptions.token})
  --data-dir DIR      persist uploaded sales in DIR across restarts
  --rotation R        MAC behaviour of the phones: realistic (default: bursts; most randomized
                      MACs rotate at almost every burst, as published captures show, with real
                      phones' rates, extra devices and equipment), a share 0..1 of the
                      randomizing phones that rotate, or off (the simple world: one MAC per
                      visit, single probes)
  --burst-gap-s G     median gap between a phone's probe bursts, seconds, for every state: one
                      number, or LO,HI for a per-phone range (default: by screen/Wi-Fi state,
                      5-15 screen on, 30-50 screen off, 60-180 associated)
  --shadowing-db D    slow fading of each phone at each sensor, dB: bodies, pockets, shelves,
                      drifting over ~2 m and ~30 s (default 0: none; indoors it is 3-8)
  --truth FILE        write the ground truth per MAC as NDJSON to FILE (one line per MAC heard
                      per visit: shop, device, start, end, kind, person, visit, inside, macClass,
                      first, last, records)
  --truth-visits FILE write every true visit per person, with every MAC used, as NDJSON
  --truth-occupancy FILE
                      write the enter/leave events of people inside as NDJSON
  --fail-rate P       share of API requests answered 500/503 (default 0)
  --throttle-rate P   share answered 429 with Retry-After (default 0)
  --truncate-rate P   share of successful bodies cut mid-JSON (default 0)
  --malformed-rate P  share of signal records served broken: a field null, absent, of another
                      type or out of range, the same records on every request (default 0)
  --latency-ms N      delay before every API response (default 0)
  --retry-after S     Retry-After of throttled responses, seconds (default 1)
  --since-mode M      inclusive (default) or exclusive reading of since
  --ts-unit U         unit of ts: s, ms (default), us or ns
  --ts-quoted         serve ts as a JSON string of its digits, as services that serialise
                      64-bit integers as strings do
  --rts-unit U        what the RTS counts: s, ms (default), us or ns (the interface does not
                      say; read it with footfall signals/analyze --rts-unit U)
  --rts-case C        lower (default, the interface's sample) or upper: the RTS in row_key as
                      uppercase hex, and since compared as a string with it, as a key-value
                      store scans (footfall reads either)
  --rts-unpadded      the RTS as its value's own hex digits, without leading zeros
                      ("19a9ec06410"), since compared with it as a string
  --upload-every-s S  live mode: each sensor uploads what it heard every S simulated seconds,
                      so records appear up to S late, behind newer ones (default 0: at once;
                      read with footfall signals --settle-ms of at least S × 1000)
  --page-size N|LO,HI serve at most N records a page whatever limit asks (a stricter service),
                      or a size drawn from LO…HI per page (a service that cuts pages at its
                      own boundaries): the spec promises only "at most limit" (default: limit)

Example:
  footfall sim --port 8080 --seed 7 --fail-rate 0.05 --truth truth.ndjson`;

const flags = {
  port: { type: "string" },
  "signal-port": { type: "string" },
  seed: { type: "string" },
  world: { type: "string" },
  start: { type: "string" },
  days: { type: "string" },
  speed: { type: "string" },
  email: { type: "string" },
  token: { type: "string" },
  "data-dir": { type: "string" },
  truth: { type: "string" },
  "truth-visits": { type: "string" },
  "truth-occupancy": { type: "string" },
  rotation: { type: "string" },
  "burst-gap-s": { type: "string" },
  "shadowing-db": { type: "string" },
  "fail-rate": { type: "string" },
  "throttle-rate": { type: "string" },
  "truncate-rate": { type: "string" },
  "malformed-rate": { type: "string" },
  "latency-ms": { type: "string" },
  "retry-after": { type: "string" },
  "since-mode": { type: "string" },
  "ts-unit": { type: "string" },
  "ts-quoted": { type: "boolean" },
  "rts-unit": { type: "string" },
  "rts-case": { type: "string" },
  "rts-unpadded": { type: "boolean" },
  "upload-every-s": { type: "string" },
  "page-size": { type: "string" },
} as const;

/**
 * `footfall sim`: the simulator on a local port until interrupted.
 *
 * @example
 * // footfall sim --port 0 --seed 7 --fail-rate 0.05
 * const status = await command.run(["--port", "0"], io); // resolves 0 once io.signal aborts
 */
export const command: Command = {
  summary: "serve the whole service interface locally from a seeded world",
  help,
  check: (argv) => void parseFlags(argv, flags),
  async run(argv, io) {
    const { values } = parseFlags(argv, flags);
    const options = optionsFrom(values);
    const t0 = performance.now();
    let sim;
    try {
      sim = await startSimulator(options);
    } catch (error) {
      // Option validation errors are usage errors (exit 2); anything else (port in use) fails.
      if (error instanceof RangeError || error instanceof TypeError) throw new UsageError(error.message);
      throw error;
    }
    const buildMs = performance.now() - t0;
    try {
      const files: [string | undefined, readonly object[]][] = [
        [values.truth, sim.world.truth()],
        [values["truth-visits"], sim.world.visits()],
        [values["truth-occupancy"], sim.world.occupancy()],
      ];
      for (const [file, rows] of files) {
        if (file === undefined) continue;
        let text = "";
        for (const row of rows) text += `${JSON.stringify(row)}\n`;
        await writeFile(file, text, "utf8");
      }
      summarize(io, sim, buildMs, files.flatMap(([file]) => (file === undefined ? [] : [file])));
      io.stdout.write(`footfall sim listening on ${sim.baseUrl}\n`);
      await aborted(io.signal);
      io.stderr.write("footfall sim: stopping\n");
    } finally {
      await sim.close();
    }
    return EXIT_OK;
  },
};

type Values = ReturnType<typeof parseFlags<typeof flags>>["values"];

function optionsFrom(values: Values): StartSimulatorOptions {
  let world: WorldOptions = values.world === undefined ? {} : readWorldFile(values.world);
  const seed = seedFlag(values.seed);
  if (seed !== undefined) world = { ...world, seed };
  if (values.start !== undefined) world = { ...world, start: /^\d+$/.test(values.start) ? Number(values.start) : values.start };
  if (values.days !== undefined) world = { ...world, days: integerFlag("--days", values.days) };
  if (values.rotation !== undefined) world = { ...world, rotation: rotationFlag(values.rotation) };
  if (values["burst-gap-s"] !== undefined) world = { ...world, macs: { ...world.macs, burstGapS: rangeFlag("--burst-gap-s", values["burst-gap-s"], 1, 3600) } };
  if (values["shadowing-db"] !== undefined) world = { ...world, shadowingDb: numberFlag("--shadowing-db", values["shadowing-db"]) };
  const faults: { -readonly [K in keyof FaultOptions]: FaultOptions[K] } = {};
  if (values["fail-rate"] !== undefined) faults.failRate = numberFlag("--fail-rate", values["fail-rate"]);
  if (values["throttle-rate"] !== undefined) faults.throttleRate = numberFlag("--throttle-rate", values["throttle-rate"]);
  if (values["truncate-rate"] !== undefined) faults.truncateRate = numberFlag("--truncate-rate", values["truncate-rate"]);
  if (values["malformed-rate"] !== undefined) faults.malformedRate = numberFlag("--malformed-rate", values["malformed-rate"]);
  if (values["latency-ms"] !== undefined) faults.latencyMs = numberFlag("--latency-ms", values["latency-ms"]);
  if (values["retry-after"] !== undefined) faults.retryAfterS = integerFlag("--retry-after", values["retry-after"]);
  const sinceMode = values["since-mode"];
  if (sinceMode !== undefined && sinceMode !== "inclusive" && sinceMode !== "exclusive") throw new UsageError("--since-mode must be inclusive or exclusive");
  const tsUnit = values["ts-unit"];
  if (tsUnit !== undefined && !isEpochUnit(tsUnit)) throw new UsageError("--ts-unit must be s, ms, us or ns");
  const rtsUnit = values["rts-unit"];
  if (rtsUnit !== undefined && !isEpochUnit(rtsUnit)) throw new UsageError("--rts-unit must be s, ms, us or ns");
  const rtsCase = values["rts-case"];
  if (rtsCase !== undefined && rtsCase !== "lower" && rtsCase !== "upper") throw new UsageError("--rts-case must be lower or upper");
  return {
    world,
    faults,
    ...(seed !== undefined ? { seed } : {}),
    ...(values.port !== undefined ? { port: integerFlag("--port", values.port) } : {}),
    ...(values["signal-port"] !== undefined ? { signalPort: integerFlag("--signal-port", values["signal-port"]) } : {}),
    ...(values.speed !== undefined ? { speed: numberFlag("--speed", values.speed) } : {}),
    ...(values.email !== undefined ? { email: values.email } : {}),
    ...(values.token !== undefined ? { token: values.token } : {}),
    ...(values["data-dir"] !== undefined ? { dataDir: values["data-dir"] } : {}),
    ...(sinceMode !== undefined ? { sinceMode } : {}),
    ...(tsUnit !== undefined ? { tsUnit } : {}),
    ...(rtsUnit !== undefined ? { rtsUnit } : {}),
    ...(rtsCase !== undefined ? { rtsCase } : {}),
    ...(values["rts-unpadded"] === true ? { rtsPadded: false } : {}),
    ...(values["ts-quoted"] === true ? { tsQuoted: true } : {}),
    ...(values["upload-every-s"] !== undefined ? { uploadEveryMs: numberFlag("--upload-every-s", values["upload-every-s"], 0, 86_400) * 1000 } : {}),
    ...(values["page-size"] !== undefined ? { pageSize: rangeFlag("--page-size", values["page-size"], 1, SIGNALS_LIMIT_MAX, true) } : {}),
  };
}

// A number, or `LO,HI` (ascending), each within [min, max]; whole numbers only when `whole`.
function rangeFlag(flag: string, value: string, min: number, max: number, whole = false): number | Range {
  const parts = value.split(",");
  if (parts.length > 2) throw new UsageError(`${flag} must be a number or LO,HI, got ${JSON.stringify(value)}`);
  const numbers = parts.map((part) => numberFlag(flag, part, min, max));
  if (whole && !numbers.every(Number.isInteger)) throw new UsageError(`${flag} must be whole numbers, got ${JSON.stringify(value)}`);
  if (numbers.length === 1) return numbers[0]!;
  if (numbers[1]! < numbers[0]!) throw new UsageError(`${flag} LO,HI must be ascending, got ${value}`);
  return [numbers[0]!, numbers[1]!];
}

function summarize(io: CliIo, sim: Awaited<ReturnType<typeof startSimulator>>, buildMs: number, truthFiles: readonly string[]): void {
  const w = sim.world;
  const lines = [
    `footfall sim: base_url ${sim.baseUrl}  signal_url ${sim.signalUrl}`,
    // The simulator's own throwaway account: printing it is the point (clients need it).
    `footfall sim: credentials  x-user-email: ${sim.email}  x-user-token: ${sim.token}`,
    `footfall sim: world seed ${JSON.stringify(w.seed)}, ${new Date(w.startMs).toISOString()} … ${new Date(w.endMs).toISOString()}, ` +
      `${w.signalCount()} signals, built in ${Math.round(buildMs)} ms`,
    w.macBehaviour === undefined
      ? "footfall sim: MAC rotation off (one MAC per visit)"
      : `footfall sim: MAC rotation on: ${pct(w.macBehaviour.universalShare)} of shoppers' phones universal, ` +
        `${pct(w.macBehaviour.rotatingShare)} of the others rotating (a new MAC every ~${w.macBehaviour.burstsPerMac.screenOff} bursts with the screen off, ~${w.macBehaviour.burstsPerMac.screenOn} with it on)`,
  ];
  for (const shop of w.shops) {
    const brand = w.brands.find((b) => b.id === shop.brandId)!;
    let visitors = 0;
    let visitorMacs = 0;
    for (const v of w.visits(shop.id)) {
      if (v.kind !== "visitor") continue;
      visitors++;
      visitorMacs += v.macs.length;
    }
    lines.push(
      `  shop ${shop.id} ${JSON.stringify(shop.name)}  brand ${brand.id} ${JSON.stringify(brand.name)}  key ${shop.externalKey}  ` +
        `${shop.sensors.length} sensors  ${w.signalCount(shop.id)} signals  ${visitors} visitors` +
        (w.macBehaviour === undefined ? "" : ` using ${visitorMacs} MACs`),
    );
  }
  for (const file of truthFiles) lines.push(`footfall sim: ground truth written to ${file}`);
  io.stderr.write(`${lines.join("\n")}\n`);
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

function pct(share: number): string {
  return `${Math.round(share * 100)} %`;
}
