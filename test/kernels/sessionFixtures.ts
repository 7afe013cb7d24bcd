import type { Session } from "../../src/kernels/sessions/Session.ts";
import type { ClassifiedSession, VisitKind } from "../../src/kernels/visits/VisitClassifier.ts";

/** Test helper: a session with sensible defaults (complete/watermark default to "nothing known"). */
export function session(start: number, end: number, extra: Partial<Session> = {}): Session {
  const dwellMs = end - start;
  return {
    shopId: 1,
    device: "aa:00:00:00:00:01",
    start,
    end,
    dwellMs,
    estimatedDwellMs: dwellMs,
    signalCount: 10,
    probeCount: 10,
    periodicGaps: 0,
    squaredGapsMs2: 0,
    randomized: false,
    local: false,
    vendor: undefined,
    peakRssi: -50,
    peakSmoothedRssi: -55,
    nearestSensor: "b8:27:eb:00:00:01",
    sensors: [],
    watermark: end,
    complete: Number.NEGATIVE_INFINITY,
    proximity: undefined,
    ...extra,
  };
}

/** Test helper: a classified session. */
export function classifiedSession(start: number, end: number, kind: VisitKind, extra: Partial<ClassifiedSession> = {}): ClassifiedSession {
  return { ...session(start, end), kind, date: "1970-01-01", late: false, visitorRssi: -65, ...extra };
}
