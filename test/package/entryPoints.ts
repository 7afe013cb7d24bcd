import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  readonly name: string;
  readonly exports: Readonly<Record<string, string | { readonly default: string }>>;
};

/** The package's name, as code imports it ("footfall"). */
export const PACKAGE_NAME = pkg.name;

/**
 * Entry points by package specifier, read from package.json `exports` ("./operators" →
 * ./dist/operators/index.js → "footfall/operators" → operators/index.ts, relative to src/), so an
 * entry point added there is seen by every test that reads them (the examples, the docs) with no
 * change here.
 */
export const ENTRY_POINTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    const m = /^\.\/dist\/(.+)\.js$/.exec(typeof target === "string" ? target : target.default);
    return m === null ? [] : [[subpath === "." ? pkg.name : `${pkg.name}${subpath.slice(1)}`, `${m[1]}.ts`]];
  }),
);
