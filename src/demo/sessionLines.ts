import { rawDevice, type DeviceId } from "../analysis/AnalysisRecord.ts";
import { sessionRecord } from "../analysis/sessionRecord.ts";
import type { DemoShopResult } from "./DemoShopResult.ts";

/**
 * One `sessions.ndjson` line per classified session, with the fields and names of the session
 * lines of `footfall analyze --format ndjson`: `type: "session"`, shopId, device, start/end
 * (epoch ms), local date, dwell (observed and estimated, ms), signals, kind, randomized MAC,
 * vendor, peak smoothed RSSI (dBm), nearest sensor, late (see {@link sessionRecord}). `device`
 * is `device(mac, date)`: the demo passes a keyed pseudonym (the MAC only with `--raw-macs`).
 *
 * @example
 * const p = new Pseudonymizer({ key: new Uint8Array(16).fill(1) });
 * for (const line of sessionLines(results, (mac, date) => p.pseudonym(mac, date))) stream.write(line);
 */
export function* sessionLines(results: readonly DemoShopResult[], device: DeviceId = rawDevice): Generator<string> {
  for (const r of results) {
    for (const s of r.sessions) {
      yield `${JSON.stringify(sessionRecord(s, device))}\n`;
    }
  }
}
