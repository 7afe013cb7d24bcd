/**
 * The docs tell the truth about the code (issue 50): (a) every name the README and docs/*.md
 * present as the package's API is exported by the entry point they name (or by one), and the
 * README's export table lists each of them; (b) every `footfall …` command line in their shell
 * blocks, and in each command's --help examples, parses with that command's flags
 * (`Command.check`: no I/O). The rules are test/docs/docFindings.ts; findings in docs/*.md left
 * to their owner are listed in test/docs/pendingDocFindings.ts, which must only shrink.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadCommand } from "../../src/cli/loadCommand.ts";
import { commandLines } from "./commandLines.ts";
import {
  commandLineFindings,
  commandProblem,
  exportTableFindings,
  pathFindings,
  findingKey,
  presentedFindings,
  presentedNames,
  tableCompletenessFindings,
  type Exports,
  type Finding,
} from "./docFindings.ts";
import { entryExports, sourceExports } from "./exportedNames.ts";
import { docsFiles, exportTable, parseMarkdown } from "./markdown.ts";
import { PENDING_DOC_FINDINGS } from "./pendingDocFindings.ts";
import { ENTRY_POINTS } from "../package/entryPoints.ts";

const files = docsFiles();
const readme = files.find((f) => f.path === "README.md")!;
const exports: Exports = { entries: entryExports(), source: sourceExports() };
const presented = files.flatMap((f) => presentedNames(f, exports));

// The findings a rule makes that are not pending, as "file:line: message" for a readable failure.
const unexpected = (findings: readonly Finding[]) => findings.filter((f) => !PENDING_DOC_FINDINGS.includes(findingKey(f))).map((f) => `${f.path}:${f.line}: ${f.message}`);

const COMMANDS = ["demo", "sim", "brands", "shop", "signals", "analyze", "calibrate", "sales", "worker", "fleet"];

describe("the docs tell the truth about the code", () => {
  it("reads what it checks: the export table of every entry point, the names the docs present, their command lines", async () => {
    expect(new Set(exportTable(readme).map((r) => r.entry))).toEqual(new Set(exports.entries.keys()));
    expect(exportTable(readme).flatMap((r) => r.names).length).toBeGreaterThan(100);
    expect(presented.length).toBeGreaterThan(50);
    let lines = 0;
    for (const f of files) lines += (await commandLineFindings(f)).checked;
    expect(lines).toBeGreaterThan(20);
  });

  it("(a) every name the README's export table lists is exported by that row's entry point", () => {
    expect(unexpected(exportTableFindings(readme, exports))).toEqual([]);
  });

  it("(a) every typed error the table lists comes with the guard it promises (`isHttpError` …)", () => {
    const root = exports.entries.get("footfall")!;
    const errors = exportTable(readme).flatMap((r) => r.names.filter((n) => /^[A-Z]\w*Error$/.test(n)));
    expect(errors.length).toBeGreaterThan(5);
    expect(errors.filter((e) => !root.has(`is${e}`))).toEqual([]);
  });

  it("(a) every name the docs import, call, name as a constant or name with an entry point is exported there", () => {
    expect(unexpected(presentedFindings(presented, exports))).toEqual([]);
  });

  it("(a) the README's export table lists every exported name the docs present as API", () => {
    expect(unexpected(tableCompletenessFindings(readme, presented, exports))).toEqual([]);
  });

  it("(b) every footfall command line of the README's and docs' shell blocks parses with that command's flags", async () => {
    const findings: Finding[] = [];
    for (const f of files) findings.push(...(await commandLineFindings(f)).findings);
    expect(unexpected(findings)).toEqual([]);
  });

  it("every file the docs name by its path exists", () => {
    expect(unexpected(files.flatMap(pathFindings))).toEqual([]);
  });

  it.each(COMMANDS)("(b) every example in footfall %s --help parses with its flags", async (name) => {
    const help = (await loadCommand(name))!.help;
    const examples = /^Examples?:\n([\s\S]*)$/m.exec(help)?.[1] ?? "";
    const lines = commandLines(examples);
    // Each help shows its command (an example may chain another, as analyze's does signals).
    expect(lines.map((c) => c.argv[0]), examples).toContain(name);
    const problems = [];
    for (const c of lines) {
      const problem = await commandProblem(c);
      if (problem !== undefined) problems.push(`${c.source}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it("the checks fail where the docs are wrong: a name not exported, an unknown flag, a flag without its value", async () => {
    const doc = parseMarkdown(
      "docs/wrong.md",
      [
        "From code, `footfall/sim` has `createWorld` and `analyze`. Then call `dayModel(sessions, w, o)`.",
        "It is in `src/analysis/analyze.ts` and `src/nowhere.ts#L3`, tested in `test/docs/`.",
        "",
        "```ts",
        'import { signals, nowhere } from "footfall/operators";',
        "```",
        "",
        "```sh",
        "npx footfall analyze --input day.ndjson --visitor-rssi -70   # as the help writes it",
        "footfall analyze --input day.ndjson --no-such-flag",
        "FOOTFALL_X=1 footfall signals backfill --shop 101 --since 2026-11-16 --until | head",
        "footfall fleet calibration sett --shop 101",
        "footfall nonsense",
        "```",
      ].join("\n"),
    );
    const names = presentedFindings(presentedNames(doc, exports), exports).map((f) => f.message);
    expect(names).toEqual([
      "imports from `footfall/operators` `signals`, which `footfall/operators` does not export (exported by `footfall`)",
      "imports from `footfall/operators` `nowhere`, which `footfall/operators` does not export (no module of src/ exports it)",
      "names in a sentence about `footfall/sim` `analyze`, which `footfall/sim` does not export (exported by `footfall`)",
      "calls `dayModel`, which no entry point exports (it is in src/kernels/people/dayModel.ts, internal)",
    ]);
    expect(pathFindings(doc).map((f) => f.message)).toEqual(["names `src/nowhere.ts`, which does not exist"]);
    const { findings, checked } = await commandLineFindings(doc);
    expect(checked).toBe(5);
    expect(findings.map((f) => [f.line, f.message.replace(/^`[^`]*`: /, "")])).toEqual([
      [10, expect.stringMatching(/^footfall analyze: Unknown option '--no-such-flag'/)],
      [11, expect.stringMatching(/^footfall signals: Option '--until <value>' argument missing/)],
      [12, 'footfall fleet: unknown fleet calibration command "sett": set, show or clear'],
      [13, 'footfall has no command "nonsense"'],
    ]);
  });

  it("the API reference (npm run docs) documents every entry point of package.json, each under its import name", () => {
    const typedoc = JSON.parse(readFileSync(new URL("../../typedoc.json", import.meta.url), "utf8")) as { entryPoints: string[]; treatWarningsAsErrors: boolean; validation: Record<string, boolean> };
    expect([...typedoc.entryPoints].sort()).toEqual(Object.values(ENTRY_POINTS).map((file) => `src/${file}`).sort());
    expect(typedoc.treatWarningsAsErrors).toBe(true);
    expect(typedoc.validation).toMatchObject({ notDocumented: true, invalidLink: true, notExported: true });
    // TypeDoc names a module by its `@module` tag: the specifier code imports it by.
    for (const [spec, file] of Object.entries(ENTRY_POINTS)) {
      expect(readFileSync(new URL(`../../src/${file}`, import.meta.url), "utf8"), file).toMatch(new RegExp(`^ \\* @module ${spec}$`, "m"));
    }
  });

  it("the pending findings are in docs/*.md (the README is fixed here) and are still found", async () => {
    const all = [...exportTableFindings(readme, exports), ...presentedFindings(presented, exports), ...tableCompletenessFindings(readme, presented, exports), ...files.flatMap(pathFindings)];
    for (const f of files) all.push(...(await commandLineFindings(f)).findings);
    const found = new Set(all.map(findingKey));
    expect(PENDING_DOC_FINDINGS.filter((k) => !k.startsWith("docs/"))).toEqual([]);
    expect(PENDING_DOC_FINDINGS.filter((k) => !found.has(k))).toEqual([]);
  });
});
