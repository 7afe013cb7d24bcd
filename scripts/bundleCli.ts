// `npm run bundle:cli -- DIR`: bundles the compiled CLI under DIR (dist/, or a bench's build) into
// DIR/cli/main.js, its two thread modules beside it (decodeWorker.js, shareWorker.js, where the
// bundle's `workerUrl` finds them) and the chunks they share, each command still loaded on
// demand. Node's ES module loader resolves, reads and links every file by itself: the ~120 files
// `footfall analyze` imports took ~50 ms of every start (`analyze --help`, 0.19 → 0.14 s; the big
// shop-day's read began ~30 ms sooner). Packages stay imports (they are the user's installed
// ones). The library (dist/index.js and the rest) is not bundled: it stays one module per file.
// Run by `npm run build` after the quantile bundle and the OUI table, which the bundle takes in.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const dir = process.argv[2];
if (dir === undefined) throw new Error("usage: npm run bundle:cli -- DIR (the compiled tree: dist, or a bench's out/src)");
const entryPoints = {
  main: join(dir, "cli", "main.js"),
  decodeWorker: join(dir, "file", "decodeWorker.js"),
  shareWorker: join(dir, "file", "shareWorker.js"),
};
for (const file of Object.values(entryPoints)) if (!existsSync(file)) throw new Error(`bundle:cli: no ${file} (build first)`);
await build({
  entryPoints,
  outdir: join(dir, "cli"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  allowOverwrite: true,
  logLevel: "warning",
});
