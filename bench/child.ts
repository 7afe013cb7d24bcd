/** Runs one bench file in isolation and prints its rows as one JSON line (see run.ts). */
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";
import type { BenchRow } from "./lib.ts";

const name = process.argv[2];
if (name === undefined) throw new Error("usage: child.ts <bench name>");
const here = dirname(fileURLToPath(import.meta.url));
const module = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as { default: () => Promise<BenchRow[]> };
const rows = await module.default();
process.stdout.write(`\n${JSON.stringify(rows)}\n`);
