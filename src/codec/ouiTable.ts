// oui-data ships one JSON file; a JSON import (with the `type` attribute) loads it the same
// way under Node ≥ 20.10, Deno and bundlers, with no Node-only API.
import ouiData from "oui-data" with { type: "json" };
import { packOui, type PackedOui } from "./packOui.ts";

/**
 * The IEEE registry (`oui-data`) packed for the vendor lookup (see {@link PackedOui}). From the
 * sources it is packed here, at import; `npm run build` replaces the compiled `ouiTable.js` with
 * the table packed once at build time (`scripts/packOuiTable.ts`), so a start of an installed
 * footfall parses ~1.1 MB of arrays (~10 ms) rather than the registry's 5.6 MB object and then
 * its keys (~80 ms). Internal.
 *
 * @example
 * OUI_TABLE.names.includes("Apple, Inc."); // true
 */
export const OUI_TABLE: PackedOui = packOui(ouiData as unknown as Readonly<Record<string, unknown>>); // the registry's JSON, as parsed
