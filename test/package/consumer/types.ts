// Type-checked by check:package against the packed package (tsc with NodeNext resolution, and
// `deno check`): each entry point's `types` condition must resolve to declarations that carry
// the real types. An unresolved or untyped entry point fails under noImplicitAny; a type that
// widened to `any` fails the assignments to `never` below.
import { analyze, createClient, signals, type AnalyzeResult, type RawSignal } from "footfall";
import { classifyVisits, countVisits, decodeSignals, sessionize, type VisitCounts } from "footfall/operators";
import { hourlyChart } from "footfall/report";
import { startSimulator, type RunningSimulator } from "footfall/sim";
import type { Observable } from "rxjs";

/** Compiles only when `T` is not `any`. */
type NotAny<T> = 0 extends 1 & T ? never : T;

export async function typed(): Promise<void> {
  const sim: NotAny<RunningSimulator> = await startSimulator({ port: 0 });
  const client = createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
  const records: NotAny<Observable<RawSignal>> = signals(client, { shopId: 101, since: 0, until: 1 });
  const counts: NotAny<Observable<VisitCounts>> = records.pipe(decodeSignals(), sessionize(), classifyVisits(), countVisits());
  const result: NotAny<AnalyzeResult> = await analyze([]);
  const svg: NotAny<string> = hourlyChart([{ hour: 10, visitors: result.days.length, passersBy: 0 }]);
  void counts;
  void svg;
  await sim.close();
}
