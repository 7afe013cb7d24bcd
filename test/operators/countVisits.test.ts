import { describe, expect, it } from "vitest";
import { map } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { countVisits } from "../../src/operators/countVisits.ts";
import type { ClassifiedSession } from "../../src/kernels/visits/VisitClassifier.ts";
import { classifiedSession } from "../kernels/sessionFixtures.ts";

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const MIN = 60_000;
const H = 3_600_000;
const D0 = Date.UTC(2026, 10, 16);

describe("countVisits (marbles)", () => {
  it("emits an hour once `complete` passes its end, the rest on completion; late sessions go to onLate", () => {
    const late: ClassifiedSession[] = [];
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<ClassifiedSession>("-a-b-c-d-|", {
        a: classifiedSession(D0 + 10 * H, D0 + 10 * H + 9 * MIN, "visitor", { complete: D0 + 10 * H }),
        b: classifiedSession(D0 + 10 * H + MIN, D0 + 10 * H + 3 * MIN, "passerby", { device: "aa:00:00:00:00:02", complete: D0 + 10 * H + MIN }),
        c: classifiedSession(D0 + 11 * H, D0 + 11 * H + 9 * MIN, "visitor", { device: "aa:00:00:00:00:03", complete: D0 + 11 * H }),
        d: classifiedSession(D0 + 10 * H + 5 * MIN, D0 + 10 * H + 9 * MIN, "visitor", { device: "aa:00:00:00:00:04", late: true, complete: D0 + 11 * H }),
      });
      const out = source.pipe(
        countVisits({ window: "hour", timeZone: "UTC", onLate: (s) => late.push(s) }),
        map((c) => `${c.label} v${c.visitors} p${c.passersBy} u${c.uniqueDevices}`),
      );
      expectObservable(out).toBe("-----x---(y|)", { x: "2026-11-16T10:00+00:00 v1 p1 u2", y: "2026-11-16T11:00+00:00 v1 p0 u1" });
      expectSubscriptions(source.subscriptions).toBe("^--------!");
    });
    expect(late.map((s) => s.device)).toEqual(["aa:00:00:00:00:04"]);
  });

  it("tears down on unsubscribe without emitting open windows", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<ClassifiedSession>("-a---|", { a: classifiedSession(D0 + H, D0 + 2 * H, "visitor") });
      expectObservable(source.pipe(countVisits({ timeZone: "UTC" })), "^--!").toBe("----");
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("validates options when the operator is created", () => {
    // @ts-expect-error wrong on purpose
    expect(() => countVisits({ window: "month" })).toThrow(RangeError);
  });
});
