import { describe, expect, it } from "vitest";
import { mergeShardSessions, type ShardSessions } from "../../../src/kernels/sessions/mergeShardSessions.ts";
import { newSession } from "../../../src/kernels/sessions/OpenSession.ts";
import { SessionColumns, type HeldSession } from "../../../src/kernels/sessions/SessionColumns.ts";
import { sig } from "../fixtures.ts";

const T0 = Date.UTC(2026, 10, 16, 10);
const columns = new SessionColumns();

// A closed session as a share holds it: device, start, end, and the `complete` its share gave it.
function held(device: string, start: number, end: number, complete: number, shopId = 101): HeldSession {
  const open = newSession(sig(T0 + start, device, -60), shopId, undefined, undefined, null, undefined);
  open.end = T0 + end;
  return columns.add(open, shopId, T0 + end + 1, T0 + complete, false);
}

const run = (sessions: readonly [HeldSession, number][], opens: readonly number[] = []): ShardSessions => ({
  held: sessions.map(([h]) => h),
  seq: sessions.map(([, seq]) => seq),
  opens: opens.map((x, i) => (i % 2 === 0 ? x : T0 + x)),
});

function merged(parts: readonly ShardSessions[]): [string, number][] {
  const out: [string, number][] = [];
  mergeShardSessions(parts, (h) => out.push([h.device, h.complete - T0]));
  return out;
}

describe("mergeShardSessions", () => {
  it("orders the shares' sessions as one engine closes them: by the push that closed them, then end, then device", () => {
    const a = run([[held("aa:01", 0, 50, 60), 7], [held("aa:03", 10, 90, 95), 9]]);
    const b = run([[held("aa:02", 5, 50, 60), 7], [held("aa:00", 20, 80, 95), 9]]);
    expect(merged([a, b]).map(([d]) => d)).toEqual(["aa:01", "aa:02", "aa:00", "aa:03"]);
  });

  it("gives each session the oldest start still open in its shop when it closed, of any share", () => {
    // Share a's session closed thinking nothing older was open (complete: where it had read up to);
    // share b's opened at 30 and closed later, and b still holds one open since 25 at the run's end.
    const a = run([[held("aa:01", 0, 50, 100), 7]]);
    const b = run([[held("aa:02", 30, 60, 100), 8]], [101, 25]);
    expect(merged([a, b])).toEqual([
      ["aa:01", 25],
      ["aa:02", 25],
    ]);
    // Another shop's open sessions change nothing; a share's own `complete` is kept when lower.
    const c = run([[held("aa:05", 0, 50, 20), 7]], [102, 1]);
    expect(merged([c])).toEqual([["aa:05", 20]]);
  });

  it("leaves one share's sessions as they are", () => {
    // As one engine gives them: aa:02 was open since 5 when aa:01 closed, and one since 65 is open now.
    const only = run([[held("aa:01", 0, 50, 5), 1], [held("aa:02", 5, 60, 65), 2]], [101, 65]);
    expect(merged([only])).toEqual([
      ["aa:01", 5],
      ["aa:02", 65],
    ]);
  });
});
