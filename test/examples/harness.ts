/**
 * The machinery that runs the `@example`s of src/ (see test/examples.test.ts for the rules),
 * shared by test/examples.test.ts and test/fleet/examples.test.ts (the examples that need the
 * fleet's Redis and PostgreSQL).
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import * as rxjs from "rxjs";
import { expect } from "vitest";
import { ENTRY_POINTS, PACKAGE_NAME } from "../package/entryPoints.ts";

export { ENTRY_POINTS };

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
    });
}

/** Path relative to src/, with forward slashes: the names the pending list uses. */
export const relOf = (path: string): string => relative(SRC, path).split(/[\\/]/).join("/");
/** src/kernels/people/x.ts → "kernels"; src/index.ts → "index". */
export const areaOf = (rel: string): string => (rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : rel.replace(/\.ts$/, ""));

export const files = sourceFiles(SRC).map(relOf);
export const modules = new Map<string, Record<string, unknown>>();
for (const rel of files) modules.set(rel, (await import(pathToFileURL(join(SRC, rel)).href)) as Record<string, unknown>);

/** What an example's `import … from spec` gets: an entry point of ours, or the real module. */
export async function importFor(spec: string): Promise<Record<string, unknown>> {
  const entry = ENTRY_POINTS[spec];
  if (entry !== undefined) return modules.get(entry)!;
  if (spec.startsWith(`${PACKAGE_NAME}/`)) throw new Error(`${spec} is not an entry point of the package`);
  return (await import(spec)) as Record<string, unknown>;
}

/** Examples print what they show; the test keeps its output readable. */
const quietConsole = { ...console, log: () => {}, info: () => {}, warn: () => {}, error: () => {}, table: () => {} };

/**
 * rxjs (examples pipe and subscribe), then every export of src/, then the file's area's, then
 * the file's own (later wins on a clash), then a console that prints nothing.
 */
export function scopeOf(rel: string): Record<string, unknown> {
  const scope: Record<string, unknown> = { ...rxjs };
  for (const [other, exports] of modules) if (areaOf(other) !== areaOf(rel)) Object.assign(scope, exports);
  for (const [other, exports] of modules) if (areaOf(other) === areaOf(rel) && other !== rel) Object.assign(scope, exports);
  Object.assign(scope, modules.get(rel), { console: quietConsole });
  return scope;
}

export interface Example {
  readonly where: string;
  readonly code: string;
}

export function examplesOf(rel: string): Example[] {
  const text = readFileSync(join(SRC, rel), "utf8");
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
    out.push({ where: `${rel}:${lineNo}`, code: body.join("\n").trim() });
  }
  return out;
}

const DECLARATION = /^(const|let|var|try|if|for|while|class|function|import|export|type|interface|return|throw|await\s+using)\b/;

/** Statements that bind names, which a wrapping function would hide from the lines after them. */
const BINDING = /^(const|let|var|class|function|import|export|type|interface|await\s+using)\b/;

/** Literal values a one-word comment may name; any other word ("ok", "unchanged") is a remark. */
const WORD_VALUES = new Set(["true", "false", "null", "undefined", "NaN", "Infinity"]);

/** Tries the comment as a JS value, then without a trailing "(remark)"; undefined if neither parses. */
function expectedSource(comment: string): string | undefined {
  if (/^[A-Za-z_$][\w$]*$/.test(comment) && !WORD_VALUES.has(comment)) return undefined;
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

/** Whether `code` parses as whole statements (nothing left open). */
function isComplete(code: string): boolean {
  const file = ts.createSourceFile("example.ts", code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  return (file as unknown as { parseDiagnostics: readonly unknown[] }).parseDiagnostics.length === 0; // not in the public typings
}

/** `import { a, b as c } from "x"` → `const { a, b: c } = await __import("x")` (and `* as`, default). */
function rewriteImports(js: string): string {
  return js
    .replace(/^import\s+\{([^}]*)\}\s+from\s+(["'][^"']+["']);?/gm, (_, names: string, spec: string) => {
      const bindings = names
        .split(",")
        .map((n) => n.trim())
        .filter((n) => n !== "")
        .map((n) => n.replace(/\s+as\s+/, ": "));
      return `const { ${bindings.join(", ")} } = await __import(${spec});`;
    })
    .replace(/^import\s+\*\s+as\s+(\w+)\s+from\s+(["'][^"']+["']);?/gm, "const $1 = await __import($2);")
    .replace(/^import\s+(\w+)\s+from\s+(["'][^"']+["']);?/gm, "const $1 = (await __import($2)).default;");
}

/** Turns an example into a script: checked statements call `__check(actual, expected, text)`. */
export function scriptOf(code: string): { script: string; checks: number } {
  const out: string[] = [];
  let buffer: string[] = [];
  let checks = 0;
  for (const line of code.split("\n")) {
    const m = /^(.*;)\s*\/\/\s?(.*)$/.exec(line);
    if (m === null) {
      buffer.push(line);
      continue;
    }
    // Lines before a checked one belong to its statement only if they are not complete on their own.
    if (buffer.length > 0 && isComplete(buffer.join("\n"))) {
      out.push(...buffer);
      buffer = [];
    }
    const statement = [...buffer, m[1]!].join("\n").trim();
    buffer = [];
    const comment = m[2]!.trim();
    const thrown = /^(\w*Error)\b/.exec(comment);
    if (thrown !== null && !BINDING.test(statement)) {
      out.push(`__throws(() => { ${statement} }, ${JSON.stringify(thrown[1])}, ${JSON.stringify(statement)});`);
      checks++;
      continue;
    }
    const expected = expectedSource(comment);
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
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false },
  }).outputText;
  return { script: rewriteImports(js), checks };
}

/** A fixture name as a regular expression source (`stop$` has a `$`). */
const literal = (name: string): string => name.replace(/[$]/g, "\\$");

/** Whether `code` mentions `name` as a whole identifier. */
export const mentions = (code: string, name: string): boolean => new RegExp(`(?<![\\w$])${literal(name)}(?![\\w$])`).test(code);

/** Whether `code` declares `name` itself (then the fixture of that name is not built). */
export function declares(code: string, name: string): boolean {
  const n = literal(name);
  return new RegExp(`\\b(const|let|var|function|class)\\s+${n}(?![\\w$])|\\b(const|let|var)\\s*\\{[^}]*(?<![\\w$])${n}(?![\\w$])[^}]*\\}\\s*=`).test(code);
}

/** `// RangeError` after a statement: it must throw that error (by name, so subclasses' names count). */
function throws(run: () => void, name: string, text: string): void {
  expect(run, text).toThrow();
  try {
    run();
  } catch (error) {
    expect((error as Error).name, text).toBe(name);
  }
}

const scopes = new Map<string, Record<string, unknown>>();

/**
 * Runs one example of `rel` with the given fixtures (already built for the names it mentions);
 * returns the number of checked results.
 */
export async function runExample(rel: string, example: Example, fixtures: Record<string, unknown>): Promise<number> {
  const { script, checks } = scriptOf(example.code);
  let scope = scopes.get(rel);
  if (scope === undefined) scopes.set(rel, (scope = scopeOf(rel)));
  const values: Record<string, unknown> = { ...scope, ...fixtures };
  const names = Object.keys(values);
  const check = (actual: unknown, expected: unknown, text: string): void => {
    expect(actual, `${example.where}: ${text}`).toStrictEqual(expected);
  };
  const run = new Function("__check", "__throws", "__import", ...names, `return (async () => {\n${script}\n})();`);
  await run(check, throws, importFor, ...names.map((n) => values[n]));
  return checks;
}

/** The fixture names an example asks for: those it mentions and does not declare itself. */
export const wantedFixtures = (example: Example, fixtureNames: readonly string[]): string[] =>
  fixtureNames.filter((name) => mentions(example.code, name) && !declares(example.code, name));
