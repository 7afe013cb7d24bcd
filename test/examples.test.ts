/**
 * Runs every `@example` in src/ (docs/architecture.md: every export has "an @example that runs").
 *
 * A statement ending in `; // expected` is checked: the expression must equal the commented
 * value (a trailing "(remark)" is ignored). Other statements just have to run. An example sees
 * every export of src/ (its own module's first, then its area's, then the rest), the `import`s it
 * writes itself (`"footfall"`, `"footfall/operators"` … resolve to the entry points in src/, so
 * an example that imports a name from the wrong entry point fails), and the fixtures in
 * test/examples/fixtures.ts for the free variables examples share (`world`, `client`, `records` …).
 *
 * Files whose examples are known not to run yet are listed, by name, in
 * test/examples/pendingExamples.ts and skipped (and printed); the list must only shrink. Files
 * whose examples need the fleet's Redis and PostgreSQL (test/examples/fleetExamples.ts) are left
 * to test/fleet/examples.test.ts, which starts those servers (printed here too).
 *
 * The machinery (reading examples, turning them into scripts, the scope they see) is in
 * test/examples/harness.ts, shared with the fleet's examples test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeFixtures, fixtureNames, scratchDir, useFixtures } from "./examples/fixtures.ts";
import { FLEET_EXAMPLES, FLEET_EXAMPLES_REASON } from "./examples/fleetExamples.ts";
import { ENTRY_POINTS, examplesOf, files, modules, runExample, wantedFixtures } from "./examples/harness.ts";
import { PENDING_AREAS, PENDING_EXAMPLES } from "./examples/pendingExamples.ts";

const skipped = files.filter((rel) => PENDING_EXAMPLES.includes(rel));
let checked = 0;

describe("@example blocks in src/", () => {
  it("resolves the package's entry points", () => {
    expect(Object.keys(ENTRY_POINTS)).toEqual(expect.arrayContaining(["footfall", "footfall/operators", "footfall/report", "footfall/sim"]));
    for (const file of Object.values(ENTRY_POINTS)) expect(modules.has(file), file).toBe(true);
  });

  const cwd = process.cwd();
  let scratch: ReturnType<typeof scratchDir> | undefined;
  beforeAll(() => {
    scratch = scratchDir();
    process.chdir(scratch.dir);
  });
  afterAll(async () => {
    process.chdir(cwd);
    await closeFixtures();
    scratch?.remove();
  });

  it("the pending list names only files that exist, have examples and are in an area being rewritten", () => {
    expect(PENDING_EXAMPLES.filter((rel) => !files.includes(rel) || examplesOf(rel).length === 0)).toEqual([]);
    expect(PENDING_EXAMPLES.filter((rel) => !PENDING_AREAS.some((area) => rel === area || rel.startsWith(`${area}/`)))).toEqual([]);
  });

  it("the files left to the fleet's examples test exist and have examples", () => {
    expect(FLEET_EXAMPLES.filter((rel) => !files.includes(rel) || examplesOf(rel).length === 0)).toEqual([]);
    expect(FLEET_EXAMPLES.filter((rel) => PENDING_EXAMPLES.includes(rel))).toEqual([]);
  });

  for (const rel of files) {
    if (FLEET_EXAMPLES.includes(rel)) continue;
    const examples = examplesOf(rel);
    if (examples.length === 0) continue;
    const pending = PENDING_EXAMPLES.includes(rel);
    for (const example of examples) {
      it.skipIf(pending)(`runs ${example.where}`, async () => {
        await useFixtures(rel, wantedFixtures(example, fixtureNames), async (fixtures) => {
          checked += await runExample(rel, example, fixtures);
        });
      });
    }
  }

  it("checked a meaningful number of results", () => {
    expect(checked).toBeGreaterThan(40);
  });

  afterAll(() => {
    console.warn(`@example: ${FLEET_EXAMPLES.length} file(s) left to test/fleet/examples.test.ts (${FLEET_EXAMPLES_REASON}):\n  ${FLEET_EXAMPLES.join("\n  ")}`);
    if (skipped.length > 0) {
      console.warn(`@example: ${skipped.length} file(s) pending (test/examples/pendingExamples.ts):\n  ${skipped.join("\n  ")}`);
    }
  });
});
