/**
 * Build step (`npm run build`, and the benches' builds): writes DIR/codec/ouiTable.js, the
 * compiled `ouiTable` module, as the `oui-data` registry packed by `packOui` once, here, rather
 * than at every start.
 *
 * Usage: `tsx scripts/packOuiTable.ts DIR` (DIR: the compiled tree, `dist` by default).
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OUI_TABLE } from "../src/codec/ouiTable.ts";
import { ouiTableModule } from "../src/codec/packOui.ts";

const dir = process.argv[2] ?? "dist";
writeFileSync(join(dir, "codec", "ouiTable.js"), ouiTableModule(OUI_TABLE));
// tsc's map of the module it replaces would point at the wrong code.
rmSync(join(dir, "codec", "ouiTable.js.map"), { force: true });
