/**
 * Runs the `@example`s test/examples.test.ts leaves to the fleet (test/examples/fleetExamples.ts:
 * src/fleet's, `footfall fleet`'s and `footfall worker`'s, which talk to Redis and PostgreSQL),
 * by the same rules (test/examples/harness.ts), against a redis-server and a PostgreSQL of this
 * file's own (test/fleet/fleetServers.ts) and the shared simulator. Outside CI without those
 * servers it is skipped with one line, like the other fleet tests; in CI it fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeFixtures, scratchDir } from "../examples/fixtures.ts";
import { FLEET_EXAMPLES } from "../examples/fleetExamples.ts";
import { closeFleet, fleetFixtureNames, openFleet, useFleetFixtures } from "../examples/fleetFixtures.ts";
import { examplesOf, files, runExample, wantedFixtures } from "../examples/harness.ts";
import { fleetTestsSkipped, startPostgres, startRedis, type TestPostgres, type TestRedis } from "./fleetServers.ts";

describe.skipIf(fleetTestsSkipped())("@example blocks of the fleet (Redis and PostgreSQL)", () => {
  let redis: TestRedis | undefined;
  let postgres: TestPostgres | undefined;
  const cwd = process.cwd();
  let scratch: ReturnType<typeof scratchDir> | undefined;
  let checked = 0;

  beforeAll(async () => {
    scratch = scratchDir();
    process.chdir(scratch.dir);
    // Each kept as soon as it runs, so that afterAll stops it even if the other failed to start.
    const [r, p] = await Promise.allSettled([startRedis(), startPostgres()]);
    if (r.status === "fulfilled") redis = r.value;
    if (p.status === "fulfilled") postgres = p.value;
    if (r.status === "rejected") throw r.reason;
    if (p.status === "rejected") throw p.reason;
    await openFleet({ redisUrl: r.value.url, databaseUrl: p.value.url });
  });

  afterAll(async () => {
    process.chdir(cwd);
    try {
      await closeFleet();
      await closeFixtures();
    } finally {
      await Promise.all([redis?.stop(), postgres?.stop()]);
      scratch?.remove();
    }
  });

  it("names files that exist and have examples", () => {
    expect(FLEET_EXAMPLES.filter((rel) => !files.includes(rel) || examplesOf(rel).length === 0)).toEqual([]);
  });

  for (const rel of FLEET_EXAMPLES) {
    for (const example of examplesOf(rel)) {
      it(`runs ${example.where}`, async () => {
        await useFleetFixtures(rel, wantedFixtures(example, fleetFixtureNames), async (fixtures) => {
          checked += await runExample(rel, example, fixtures);
        });
      });
    }
  }

  it("checked some results", () => {
    expect(checked).toBeGreaterThan(0);
  });
});
