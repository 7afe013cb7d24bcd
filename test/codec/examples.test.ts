/**
 * Runs every `@example` in src/codec/*.ts. A statement ending in `; // expected` is checked:
 * the expression must equal the commented value (a trailing "(remark)" is ignored).
 * Other statements just have to run. Examples see every export of the codec modules.
 */
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const codecDir = fileURLToPath(new URL("../../src/codec/", import.meta.url));
const files = readdirSync(codecDir).filter((f) => f.endsWith(".ts")).sort();

const scope: Record<string, unknown> = {};
for (const file of files) Object.assign(scope, await import(`../../src/codec/${file}`));

interface Example {
  readonly where: string;
  readonly code: string;
}

function examplesOf(file: string): Example[] {
  const text = readFileSync(codecDir + file, "utf8");
  const out: Example[] = [];
  for (const match of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const lines = match[1]!.split("\n").map((l) => l.replace(/^\s*\* ?/, ""));
    const start = lines.findIndex((l) => l.startsWith("@example"));
    if (start < 0) continue;
    const body: string[] = [];
    for (const line of lines.slice(start + 1)) {
      if (line.startsWith("@")) break;
      body.push(line);
    }
    const lineNo = text.slice(0, match.index).split("\n").length;
    out.push({ where: `${file}:${lineNo}`, code: body.join("\n").trim() });
  }
  return out;
}

const DECLARATION = /^(const|let|var|try|if|for|class|function|import|export|type|interface)\b/;

/** Tries the comment as a JS value, then without a trailing "(remark)"; undefined if neither parses. */
function expectedSource(comment: string): string | undefined {
  // The remark-less reading first: "false (uppercase)" would otherwise parse as a call.
  for (const candidate of [comment.replace(/\s+\([^()]*\)\s*$/, ""), comment]) {
    try {
      new Function(`return (${candidate});`);
      return candidate;
    } catch {
      // not a value; try the next reading
    }
  }
  return undefined;
}

/** Turns an example into a script: checked statements call `__check(actual, expected, text)`. */
function scriptOf(code: string): { script: string; checks: number } {
  const out: string[] = [];
  let buffer: string[] = [];
  let checks = 0;
  for (const line of code.split("\n")) {
    const m = /^(.*;)\s*\/\/\s?(.*)$/.exec(line);
    if (m === null) {
      buffer.push(line);
      continue;
    }
    const statement = [...buffer, m[1]!].join("\n").trim();
    buffer = [];
    const expected = expectedSource(m[2]!.trim());
    if (expected === undefined || DECLARATION.test(statement)) {
      out.push(statement);
      continue;
    }
    const expr = statement.replace(/;$/, "");
    out.push(`__check((${expr}), (${expected}), ${JSON.stringify(expr.trim())});`);
    checks++;
  }
  out.push(...buffer);
  const js = ts.transpileModule(out.join("\n"), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
  return { script: js, checks };
}

describe("@example blocks in src/codec", () => {
  let total = 0;
  for (const file of files) {
    const examples = examplesOf(file);
    it(`${file} has examples`, () => {
      expect(examples.length).toBeGreaterThan(0);
    });
    for (const example of examples) {
      it(`runs ${example.where}`, async () => {
        const { script, checks } = scriptOf(example.code);
        total += checks;
        const names = Object.keys(scope);
        const check = (actual: unknown, expected: unknown, text: string): void => {
          expect(actual, `${example.where}: ${text}`).toStrictEqual(expected);
        };
        const run = new Function("__check", ...names, `return (async () => {\n${script}\n})();`);
        await run(check, ...names.map((n) => scope[n]));
      });
    }
  }
  it("checked a meaningful number of results", () => {
    expect(total).toBeGreaterThan(40);
  });
});
