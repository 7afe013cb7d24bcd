import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/**
 * A thread's module (a decode thread's or a share thread's): the compiled `NAME.js` beside this
 * file; when running from the TypeScript sources (tests, notebooks), a small module that registers
 * tsx's loader first and then imports `NAME.ts` (a worker's `execArgv` cannot bring a loader in
 * time for its own entry module). tsx is resolved from this file, not from the working directory.
 *
 * @example
 * workerUrl("shareWorker").href.includes("shareWorker"); // true
 */
export function workerUrl(name: "decodeWorker" | "shareWorker"): URL {
  if (!import.meta.url.endsWith(".ts")) return new URL(`./${name}.js`, import.meta.url);
  return sourceWorkerUrl(new URL(`./${name}.ts`, import.meta.url));
}

/**
 * Internal: a worker's entry for a TypeScript module `entry`, run from the sources (tests,
 * notebooks): a small module that registers tsx's loader in the worker's thread, then imports
 * `entry`. tsx is resolved from this file, not from the working directory.
 *
 * @example
 * sourceWorkerUrl(new URL("file:///app/src/file/shareWorker.ts")).protocol; // "data:"
 */
export function sourceWorkerUrl(entry: URL): URL {
  // tsx's ESM API (`tsx/esm/api`, its `import` target read from tsx's own exports map, since a
  // require-resolution gives the CommonJS build): `register()` installs the loader in this thread.
  const pkgPath = createRequire(import.meta.url).resolve("tsx/package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { exports: Record<string, { import: { default: string } }> };
  const api = new URL(pkg.exports["./esm/api"]!.import.default, pathToFileURL(pkgPath)).href;
  const code = `import { register } from ${JSON.stringify(api)}; register(); await import(${JSON.stringify(entry.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}
