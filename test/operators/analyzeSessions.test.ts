import { describe, expect, it } from "vitest";
import { connect, from, lastValueFrom, map, merge, toArray } from "rxjs";
import { analyze } from "../../src/analysis/analyze.ts";
import { analyzeSessions } from "../../src/operators/analyzeSessions.ts";
import { classifyVisits } from "../../src/operators/classifyVisits.ts";
import { countVisits } from "../../src/operators/countVisits.ts";
import { decodeSignals } from "../../src/operators/decodeSignals.ts";
import { estimatePeople } from "../../src/operators/estimatePeople.ts";
import { measureDwell } from "../../src/operators/measureDwell.ts";
import { sessionize } from "../../src/operators/sessionize.ts";
import type { SessionStageOutput } from "../../src/kernels/sessionStages.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

const world = createWorld({ seed: 5, shops: 1, days: 2, visitorsPerDay: 80, passersByPerDay: 400 });
const shop = world.shops[0]!;
const timeZone = shop.timeZone;
const classified$ = () => from([...world.rawSignals(shop.id)]).pipe(decodeSignals(), sessionize(), classifyVisits({ timeZone }));
const tagged = (stage: SessionStageOutput["stage"]) => (outs: readonly SessionStageOutput[]) => outs.filter((o) => o.stage === stage).map((o) => o.value);

describe("analyzeSessions", () => {
  it("gives, in one pass, what countVisits, measureDwell and estimatePeople give composed by hand", async () => {
    const outs = await lastValueFrom(classified$().pipe(analyzeSessions({ timeZone }), toArray()));
    const byHand = await lastValueFrom(
      classified$().pipe(
        connect((s$) =>
          merge(
            s$.pipe(countVisits({ window: "day", timeZone }), toArray(), map((days) => ({ days }))),
            s$.pipe(countVisits({ window: "hour", timeZone }), toArray(), map((hours) => ({ hours }))),
            s$.pipe(measureDwell({ window: "day", timeZone }), toArray(), map((dwell) => ({ dwell }))),
            s$.pipe(estimatePeople({ timeZone }), toArray(), map((people) => ({ people }))),
          ),
        ),
        toArray(),
        map((parts) => Object.assign({}, ...parts) as Record<string, unknown[]>),
      ),
    );
    expect(tagged("days")(outs)).toEqual(byHand["days"]);
    expect(tagged("hours")(outs)).toEqual(byHand["hours"]);
    expect(tagged("dwell")(outs)).toEqual(byHand["dwell"]);
    expect(tagged("people")(outs)).toEqual(byHand["people"]);
    expect(tagged("days")(outs)).toHaveLength(2);
  });

  it("is the stage list analyze() runs: the same days, hours and people", async () => {
    const outs = await lastValueFrom(classified$().pipe(analyzeSessions({ timeZone }), toArray()));
    const result = await analyze(world.rawSignals(shop.id), { timeZone, quality: false });
    expect(tagged("people")(outs)).toEqual(result.people);
    expect(tagged("hours")(outs)).toEqual(result.hours);
    expect(tagged("days")(outs).map((d) => (d as { visitors: number }).visitors)).toEqual(result.days.map((d) => d.visitors));
  });

  it("leaves out the stages turned off, and validates its options when created", async () => {
    const outs = await lastValueFrom(classified$().pipe(analyzeSessions({ timeZone, hourly: false, people: false }), toArray()));
    expect(new Set(outs.map((o) => o.stage))).toEqual(new Set(["days", "dwell"]));
    expect(() => analyzeSessions({ timeZone: "Mars/Olympus" })).toThrow(RangeError);
    expect(() => analyzeSessions({ timeZone, people: { intervalMs: 1 } })).toThrow(RangeError);
    expect(() => analyzeSessions({ timeZone, onLate: "no" as never })).toThrow(TypeError);
    expect(() => analyzeSessions(null as never)).toThrow(TypeError);
  });
});
