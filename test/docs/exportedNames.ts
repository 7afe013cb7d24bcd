/**
 * What the package exports, read from the source with the TypeScript parser (no type check):
 * each entry point's names (values and types, as `import { … }` sees them), and every name any
 * module of src/ exports (to tell a name of the code from a word in the docs).
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { ENTRY_POINTS } from "../package/entryPoints.ts";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
}

const isExported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

// The names a module exports: its exported declarations and `export { … }` lists (re-exports
// included, by their exported name).
function exportsOf(file: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const s of file.statements) {
    if (ts.isExportDeclaration(s)) {
      if (s.exportClause === undefined || !ts.isNamedExports(s.exportClause)) throw new Error(`${file.fileName}: \`export *\` is not read here; name the exports`);
      for (const e of s.exportClause.elements) names.push(e.name.text);
    } else if (isExported(s)) {
      if (ts.isVariableStatement(s)) {
        for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
      } else if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s)) && s.name !== undefined) {
        names.push(s.name.text);
      }
    }
  }
  return names;
}

/** Each entry point's exported names, by package specifier ("footfall/operators" → {…}). */
export function entryExports(): Map<string, Set<string>> {
  return new Map(Object.entries(ENTRY_POINTS).map(([spec, file]) => [spec, new Set(exportsOf(parse(join(SRC, file))))]));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
    });
}

/** Every name a module of src/ exports, with the modules (paths from src/) that export it. */
export function sourceExports(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const path of sourceFiles(SRC)) {
    const rel = relative(SRC, path).split(/[\\/]/).join("/");
    for (const name of exportsOf(parse(path))) out.set(name, [...(out.get(name) ?? []), rel]);
  }
  return out;
}
