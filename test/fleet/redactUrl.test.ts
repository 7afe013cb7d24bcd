import { describe, expect, it } from "vitest";
import { redactUrl, scrub, urlSecrets } from "../../src/fleet/redactUrl.ts";
import { localDays } from "../../src/fleet/localDays.ts";
import { sessionId } from "../../src/fleet/commitShopDay.ts";
import { shopDayJobId, tailJobId } from "../../src/fleet/fleetJobs.ts";

describe("redactUrl and scrub", () => {
  it("masks the password of a URL and password-like query parameters, and never echoes non-URLs", () => {
    expect(redactUrl("postgres://app:s3cret@db:5432/footfall")).toBe("postgres://app:***@db:5432/footfall");
    expect(redactUrl("redis://:p%40ss@h:6379/2")).toBe("redis://:***@h:6379/2");
    expect(redactUrl("postgres://db/x?password=s3cret&sslmode=require")).toBe("postgres://db/x?password=***&sslmode=require");
    expect(redactUrl("postgres://app@db/x")).toBe("postgres://app@db/x");
    expect(redactUrl("s3cret is not a url")).not.toContain("s3cret");
  });

  it("scrubs a password in raw and percent-decoded form from any text", () => {
    const secrets = urlSecrets("redis://:p%40ss@h:6379");
    expect(secrets).toEqual(["p%40ss", "p@ss"]);
    expect(scrub("AUTH p@ss failed (p%40ss)", secrets)).toBe("AUTH *** failed (***)");
    expect(urlSecrets("redis://h:6379")).toEqual([]);
  });
});

describe("job ids and days", () => {
  it("gives the same job id to the same shop-day and one per shop for tails", () => {
    expect(shopDayJobId(101, "2026-11-16")).toBe(shopDayJobId(101, "2026-11-16"));
    expect(shopDayJobId(101, "2026-11-16")).not.toBe(shopDayJobId(101, "2026-11-17"));
    expect(tailJobId(101)).not.toBe(tailJobId(102));
    // BullMQ refuses custom ids with ':'.
    expect(shopDayJobId(101, "2026-11-16")).not.toContain(":");
  });

  it("derives a deterministic session id from shop, device and start", () => {
    expect(sessionId(101, "aa:bb", 5)).toBe(sessionId(101, "aa:bb", 5));
    expect(new Set([sessionId(101, "aa:bb", 5), sessionId(102, "aa:bb", 5), sessionId(101, "aa:bc", 5), sessionId(101, "aa:bb", 6)]).size).toBe(4);
  });

  it("cuts a range into whole local days of the zone", () => {
    const since = Date.parse("2026-11-16T00:00:00+09:00");
    const days = localDays(since + 3_600_000, Date.parse("2026-11-18T00:00:00+09:00"), "Asia/Seoul");
    expect(days.map((d) => d.day)).toEqual(["2026-11-16", "2026-11-17"]);
    expect(days[0]!.sinceMs).toBe(since);
    expect(days[1]!.untilMs - days[1]!.sinceMs).toBe(86_400_000);
    expect(localDays(since, since, "Asia/Seoul")).toEqual([]);
    // A day with a DST change is 23 h long.
    const ny = localDays(Date.parse("2026-03-08T12:00:00-04:00"), Date.parse("2026-03-08T13:00:00-04:00"), "America/New_York");
    expect(ny[0]!.untilMs - ny[0]!.sinceMs).toBe(23 * 3_600_000);
  });
});
