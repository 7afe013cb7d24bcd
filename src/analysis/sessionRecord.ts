import type { SessionProximity } from "../kernels/proximity/SessionProximity.ts";
import type { ClassifiedSession } from "../kernels/visits/VisitClassifier.ts";
import { rawDevice, type AnalysisRecord, type DeviceId } from "./AnalysisRecord.ts";

/**
 * What a session line shows of a classified session: every {@link ClassifiedSession} is one, and
 * so is what a thread that renders session lines beside the analysis rebuilds from columns
 * (`SessionLineBatch`), so both are written by the one {@link sessionRecord}.
 *
 * @example
 * const fields: SessionRecordSource = result.sessions[0]!;
 */
export type SessionRecordSource = Pick<
  ClassifiedSession,
  "shopId" | "device" | "start" | "end" | "date" | "dwellMs" | "estimatedDwellMs" | "signalCount" | "kind" | "randomized" | "vendor" | "peakSmoothedRssi" | "nearestSensor" | "late"
> & { readonly proximity: Pick<SessionProximity, "closestZone" | "closestDistanceM"> | undefined };

/**
 * One session as a JSON line of `footfall analyze --format ndjson` and of the demo's
 * `sessions.ndjson` (the same fields, so either feeds the same downstream code):
 * `type: "session"`, shopId, device, start/end (epoch ms), local date, dwell observed and
 * estimated (ms), signals, kind, randomized MAC, vendor, peak smoothed RSSI (dBm, 0.1),
 * nearest sensor, closest zone and distance (m, 0.1; `null` without proximity), late.
 * `device` is `device(mac, date)`: the MAC by default, a keyed pseudonym when written by the CLI
 * or the fleet.
 *
 * @example
 * const p = new Pseudonymizer({ key: new Uint8Array(16).fill(1) });
 * for (const s of result.sessions) out.write(`${JSON.stringify(sessionRecord(s, (mac, date) => p.pseudonym(mac, date)))}\n`);
 */
export function sessionRecord(s: SessionRecordSource, device: DeviceId = rawDevice): AnalysisRecord {
  return {
    type: "session",
    shopId: s.shopId,
    device: device(s.device, s.date),
    start: s.start,
    end: s.end,
    date: s.date,
    dwellMs: s.dwellMs,
    estimatedDwellMs: Math.round(s.estimatedDwellMs),
    signals: s.signalCount,
    kind: s.kind,
    randomized: s.randomized,
    vendor: s.vendor ?? null,
    peakRssi: round1(s.peakSmoothedRssi),
    nearestSensor: s.nearestSensor,
    closestZone: s.proximity?.closestZone ?? null,
    closestDistanceM: s.proximity === undefined ? null : round1(s.proximity.closestDistanceM),
    late: s.late,
  };
}

function round1(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x * 10) / 10 : null;
}
