import type { Observable, OperatorFunction } from "rxjs";
import { describe, expectTypeOf, it } from "vitest";
import {
  analyze,
  createClient,
  signals,
  type AnalyzeResult,
  type SessionProximity,
  type DataQualityReport,
  type RawSignal,
  type ShopDaySummary,
} from "../../src/index.ts";
import {
  classifyVisits,
  countVisits,
  decodeSignals,
  measureDwell,
  sessionize,
  type ClassifiedSession,
  type InvalidRecord,
  type Session,
  type Signal,
  type VisitCounts,
  type VisitKind,
  type WindowDwell,
} from "../../src/operators/index.ts";

/**
 * The public types through a typical chain, checked by `npm run typecheck` (tsc reads test/):
 * source records → decodeSignals → sessionize → classifyVisits → countVisits, and `analyze`.
 * A change that widens an element to `unknown`/`any` or renames a field a caller reads fails
 * here before it reaches a user. Imports go through the entry points, as a package user's do.
 */
describe("types through the operator chain", () => {
  const client = createClient({ baseUrl: "http://127.0.0.1:1", signalUrl: "http://127.0.0.1:1", email: "a@b.test", token: "t" });
  const records = signals(client, { shopId: 101, since: 0, until: 3_600_000 });

  it("the source emits the service's raw records", () => {
    expectTypeOf(records).toEqualTypeOf<Observable<RawSignal>>();
  });

  it("each operator maps the previous element type to the next", () => {
    expectTypeOf(decodeSignals()).toEqualTypeOf<OperatorFunction<unknown, Signal>>();
    expectTypeOf(sessionize()).toEqualTypeOf<OperatorFunction<Signal, Session>>();
    expectTypeOf(classifyVisits()).toEqualTypeOf<OperatorFunction<Session, ClassifiedSession>>();
    expectTypeOf(countVisits()).toEqualTypeOf<OperatorFunction<ClassifiedSession, VisitCounts>>();
    expectTypeOf(measureDwell()).toEqualTypeOf<OperatorFunction<ClassifiedSession, WindowDwell>>();
  });

  it("the piped chain ends in visit counts whose fields callers read", () => {
    const counts = records.pipe(decodeSignals({ shopId: 101 }), sessionize(), classifyVisits(), countVisits({ window: "hour" }));
    expectTypeOf(counts).toEqualTypeOf<Observable<VisitCounts>>();
    expectTypeOf<VisitCounts["visitors"]>().toEqualTypeOf<number>();
    expectTypeOf<VisitCounts["captureRate"]>().toEqualTypeOf<number>();
    expectTypeOf<VisitCounts["randomized"]["visitors"]>().toEqualTypeOf<number>();
    expectTypeOf<Session["shopId"]>().toEqualTypeOf<number>();
    expectTypeOf<ClassifiedSession["kind"]>().toEqualTypeOf<VisitKind>();
    expectTypeOf<Signal["time"]>().toEqualTypeOf<number>();
    expectTypeOf<Signal["device"]>().toEqualTypeOf<string>();
  });

  it("the invalid side channel receives typed records", () => {
    expectTypeOf(decodeSignals).parameter(0).exclude<undefined>().toHaveProperty("onInvalid");
    expectTypeOf<InvalidRecord["reason"]>().not.toBeAny();
    expectTypeOf<InvalidRecord["reason"]>().toExtend<string>();
  });

  it("analyze takes any records and resolves to days, sessions and quality", () => {
    expectTypeOf(analyze).parameter(0).toEqualTypeOf<Iterable<unknown> | AsyncIterable<unknown>>();
    expectTypeOf(analyze).returns.toEqualTypeOf<Promise<AnalyzeResult>>();
    expectTypeOf<AnalyzeResult["days"]>().toEqualTypeOf<readonly ShopDaySummary[]>();
    expectTypeOf<AnalyzeResult["sessions"]>().toEqualTypeOf<readonly ClassifiedSession[]>();
    expectTypeOf<AnalyzeResult["quality"]>().toEqualTypeOf<DataQualityReport | undefined>();
    expectTypeOf<ShopDaySummary>().toExtend<VisitCounts>();
    expectTypeOf<ClassifiedSession["proximity"]>().toEqualTypeOf<SessionProximity | undefined>();
    expectTypeOf<ShopDaySummary["visitors"]>().toEqualTypeOf<number>();
    expectTypeOf<ShopDaySummary["dwell"]["medianMs"]>().toEqualTypeOf<number>();
  });
});
