// Preload (`node --import`) that records the module graph of whatever the process imports next,
// into the file named by FOOTFALL_MODULE_LOG, one URL or `node:` id per line. ESM imports go
// through a resolve hook; CommonJS ones don't, so `require` of built-ins and the CommonJS
// module cache are recorded too: a dependency reaching `fs` either way shows up.
import { appendFileSync } from "node:fs";
import { builtinModules, createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

const log = process.env.FOOTFALL_MODULE_LOG;
if (!log) throw new Error("recordModules.mjs: set FOOTFALL_MODULE_LOG to the log file's path");

register("./moduleLogHooks.mjs", import.meta.url, { data: { log } });

const Module = createRequire(import.meta.url)("node:module");
const builtins = new Set(builtinModules);
const originalRequire = Module.prototype.require;
Module.prototype.require = function (id) {
  const bare = typeof id === "string" ? id.replace(/^node:/, "") : "";
  // tsx compiles on the fly with its own requires; those are the test's machinery, not the graph.
  if (builtins.has(bare) && !/[\\/]node_modules[\\/](tsx|esbuild|get-tsconfig)[\\/]/.test(this.filename ?? "")) {
    appendFileSync(log, `node:${bare}\n`);
  }
  return originalRequire.apply(this, arguments);
};

process.on("exit", () => {
  const files = Object.keys(Module._cache).map((file) => pathToFileURL(file).href);
  if (files.length > 0) appendFileSync(log, `${files.join("\n")}\n`);
});
