import { describe, expect, it } from "vitest";
import { map, Subject } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { measureDwell } from "../../src/operators/measureDwell.ts";
import type { ClassifiedSession } from "../../src/kernels/visits/VisitClassifier.ts";
import { classifiedSession } from "../kernels/sessionFixtures.ts";

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const MIN = 60_000;
const H = 3_600_000;
const D0 = Date.UTC(2026, 10, 16);
const DAY = 24 * H;

describe("measureDwell (marbles)", () => {
  it("emits a day's visitor dwell statistics once the day is complete", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<ClassifiedSession>("-a-b-c-|", {
        a: classifiedSession(D0 + 10 * H, D0 + 10 * H + 10 * MIN, "visitor", { estimatedDwellMs: 10 * MIN, complete: D0 + 10 * H }),
        b: classifiedSession(D0 + 11 * H, D0 + 11 * H + 30 * MIN, "visitor", { estimatedDwellMs: 30 * MIN, complete: D0 + DAY }),
        c: classifiedSession(D0 + DAY + H, D0 + DAY + 2 * H, "visitor", { estimatedDwellMs: H, complete: D0 + DAY + H }),
      });
      const out = source.pipe(measureDwell({ timeZone: "UTC" }), map((d) => `${d.label} n${d.count} med${d.medianMs / MIN}`));
      expectObservable(out).toBe("---x---(y|)", { x: "2026-11-16 n2 med20", y: "2026-11-17 n1 med60" });
      expectSubscriptions(source.subscriptions).toBe("^------!");
    });
  });

  it("sends a session arriving after its window was emitted to onLate, leaving the window as emitted", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const a = classifiedSession(D0 + 10 * H, D0 + 10 * H + 10 * MIN, "visitor", { estimatedDwellMs: 10 * MIN, complete: D0 + DAY });
      // Starts on the day a already closed; its 3 h would move that day's median and mean.
      const b = classifiedSession(D0 + 15 * H, D0 + 18 * H, "visitor", { estimatedDwellMs: 3 * H, complete: D0 + DAY + H });
      const c = classifiedSession(D0 + DAY + 2 * H, D0 + DAY + 3 * H, "visitor", { estimatedDwellMs: H, complete: D0 + DAY + 2 * H });
      const source = cold<ClassifiedSession>("-a-b-c-|", { a, b, c });
      const late = new Subject<ClassifiedSession>();
      const out = source.pipe(
        measureDwell({ timeZone: "UTC", onLate: (s) => late.next(s) }),
        map((d) => `${d.label} n${d.count} med${d.medianMs / MIN} mean${d.meanMs / MIN}`),
      );
      expectObservable(out).toBe("-x-----(y|)", { x: "2026-11-16 n1 med10 mean10", y: "2026-11-17 n1 med60 mean60" });
      // b goes to onLate when it arrives and is not measured: the first day stays as emitted at a.
      expectObservable(late).toBe("---b", { b });
    });
  });

  it("tears down on unsubscribe and passes errors through", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<ClassifiedSession>("-a---|", { a: classifiedSession(D0 + H, D0 + 2 * H, "visitor") });
      expectObservable(source.pipe(measureDwell({ timeZone: "UTC" })), "^-!").toBe("---");
      expectSubscriptions(source.subscriptions).toBe("^-!");
      expectObservable(cold<ClassifiedSession>("--#").pipe(measureDwell())).toBe("--#");
    });
  });

  it("validates options when the operator is created", () => {
    expect(() => measureDwell({ timeZone: "Nowhere/City" })).toThrow(RangeError);
  });
});
