import { describe, expect, it } from "vitest";
import { knownVisits } from "../../../src/kernels/phones/knownVisits.ts";
import { dayModel } from "../../../src/kernels/people/dayModel.ts";
import { peopleEstimatorOptions } from "../../../src/kernels/people/peopleEstimatorOptions.ts";
import type { ClassifiedSession } from "../../../src/kernels/visits/VisitClassifier.ts";

const MIN = 60_000;
const REJOIN_MS = 15 * MIN;
/** An Apple MAC (a phone maker's: a whole person when heard for a visit). */
const PHONE = "f0:18:98:12:34:56";

/** One session of `device` from `start` for `bursts` bursts a minute apart, as `kind`, peaking at `rssi`. */
function session(device: string, start: number, bursts: number, kind: "visitor" | "passerby", rssi = -60): ClassifiedSession {
  const end = start + (bursts - 1) * MIN;
  return {
    shopId: 101,
    device,
    start,
    end,
    dwellMs: end - start,
    estimatedDwellMs: bursts > 1 ? (end - start) * (bursts / (bursts - 1)) : 0,
    probeCount: bursts,
    periodicGaps: 0,
    squaredGapsMs2: (bursts - 1) * MIN * MIN,
    signalCount: bursts,
    randomized: false,
    local: false,
    sensors: [{ sensor: "b8:27:eb:00:00:01", signalCount: bursts, first: start, last: end, peakRssi: rssi, peakSmoothedRssi: rssi }],
    peakSmoothedRssi: rssi,
    peakRssi: rssi,
    nearestSensor: "b8:27:eb:00:00:01",
    kind,
    visitorRssi: -70,
    date: "2026-11-16",
    late: false,
  } as unknown as ClassifiedSession;
}

const known = (visits: ClassifiedSession[], returning: ClassifiedSession[]) => knownVisits(visits, new Set(), REJOIN_MS, 0.25, [], [], returning);

describe("knownVisits: a slow prober's one-burst sessions", () => {
  it("makes a visit of a MAC heard inside again within the rejoin gap, each time for one burst", () => {
    const pieces = [session(PHONE, 0, 1, "passerby"), session(PHONE, 8 * MIN, 1, "passerby"), session(PHONE, 17 * MIN, 1, "passerby")];
    const visits = known([], pieces);
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({ device: PHONE, sessions: 3, start: 0, end: 17 * MIN, weight: 1, bursts: 2 });
  });

  it("leaves a MAC heard once a passer-by's, and so two pieces further apart than the rejoin gap", () => {
    expect(known([], [session(PHONE, 0, 1, "passerby")])).toEqual([]);
    expect(known([], [session(PHONE, 0, 1, "passerby"), session(PHONE, REJOIN_MS + MIN, 1, "passerby")])).toEqual([]);
  });

  it("joins a piece to the visit it is within the rejoin gap of, in time order", () => {
    const visit = session(PHONE, 10 * MIN, 5, "visitor");
    const visits = known([visit], [session(PHONE, 26 * MIN, 1, "passerby"), session(PHONE, 0, 1, "passerby")]);
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({ sessions: 3, start: 0, end: 26 * MIN, bursts: 6 });
  });

  it("counts it in the day's people: dayModel hands it the universal MACs heard inside that the classifier passed", () => {
    const o = peopleEstimatorOptions({ timeZone: "Asia/Seoul" });
    const pieces = [session(PHONE, 0, 1, "passerby"), session(PHONE, 9 * MIN, 1, "passerby")];
    // Far below the threshold: heard outside, a passer-by's however often.
    const outside = [session("f0:18:98:00:00:02", 0, 1, "passerby", -95), session("f0:18:98:00:00:02", 9 * MIN, 1, "passerby", -95)];
    const model = dayModel([...pieces, ...outside], { shopId: 101, start: 0 }, o);
    expect(model.known.map((k) => k.device)).toEqual([PHONE]);
  });
});
