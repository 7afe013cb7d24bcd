import ouiData from "oui-data" with { type: "json" };
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OUI_TABLE } from "../../src/codec/ouiTable.ts";
import { REGISTRATION_AUTHORITY, ouiTableModule, packOui, unpackPrefixes, type PackedOui } from "../../src/codec/packOui.ts";

/** A table's lists read back: prefix → name, per list. */
function readBack(table: PackedOui): { blocks: Map<number, string>; medium: Map<number, string>; small: Map<number, string>; subdivided: number[] } {
  const names = table.names;
  const list = (prefixes: readonly number[], indices: readonly number[]) => new Map([...unpackPrefixes(prefixes)].map((p, i) => [p, names[indices[i]!]!]));
  return {
    blocks: list(table.blockPrefixes, table.blockNames),
    medium: list(table.mediumPrefixes, table.mediumNames),
    small: list(table.smallPrefixes, table.smallNames),
    subdivided: [...unpackPrefixes(table.subdivided)],
  };
}

/** Imports a module's text, as the compiled `ouiTable.js` would be. */
async function importText(text: string): Promise<{ OUI_TABLE: PackedOui }> {
  return (await import(`data:text/javascript,${encodeURIComponent(text)}`)) as { OUI_TABLE: PackedOui };
}

describe("packOui", () => {
  it("keeps each prefix's name, the first line trimmed, with names stored once", () => {
    const table = packOui({
      F01898: "Apple, Inc.\nOne Apple Park Way\nCupertino",
      ACBC32: "  Apple, Inc.  \nCupertino",
      "1006480": "KYTRONICS\nSeoul",
      "70B3D5001": "SOREDI touch systems GmbH\nVienna",
    });
    const back = readBack(table);
    expect([...table.names].sort()).toEqual(["Apple, Inc.", "KYTRONICS", "SOREDI touch systems GmbH"]);
    expect([...back.blocks]).toEqual([
      [0xacbc32, "Apple, Inc."],
      [0xf01898, "Apple, Inc."],
    ]);
    expect([...back.medium]).toEqual([[0x1006480, "KYTRONICS"]]);
    expect([...back.small]).toEqual([[0x70b3d5001, "SOREDI touch systems GmbH"]]);
  });

  it("marks as subdivided a block with longer prefixes under it, and one the IEEE names as its own", () => {
    const table = packOui({
      "100648": `${REGISTRATION_AUTHORITY}\nPiscataway`,
      "1006480": "KYTRONICS",
      "3C3C3C": "Maker with an MA-S under its block",
      "3C3C3C001": "A small assignee",
      "70B3D5": `${REGISTRATION_AUTHORITY}`,
      F01898: "Apple, Inc.",
    });
    expect(readBack(table).subdivided).toEqual([0x100648, 0x3c3c3c, 0x70b3d5]);
  });

  it("leaves out what is not an assignment: other key lengths, non-hex keys, no name, non-strings", () => {
    const table = packOui({
      F0189: "five digits",
      F018981: "",
      F0189812: "eight digits",
      GGGGGG: "not hex",
      ABCDEF: "   \naddress only",
      "123456": 42,
      "654321": null,
    });
    expect(readBack(table)).toEqual({ blocks: new Map(), medium: new Map(), small: new Map(), subdivided: [] });
  });

  it("lets a lowercase key mark its block but name nothing (lookups write keys in uppercase)", () => {
    const table = packOui({ "1006480": "KYTRONICS", abcdef1: "lowercase" });
    const back = readBack(table);
    expect(back.subdivided).toEqual([0x100648, 0xabcdef]);
    expect([...back.medium.values()]).toEqual(["KYTRONICS"]);
  });
});

describe("unpackPrefixes", () => {
  it("gives back any ascending list of prefixes up to 36 bits that packOui stepped", () => {
    const prefixes = fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 36 - 1 }), { maxLength: 50 }).map((a) => a.sort((x, y) => x - y));
    fc.assert(
      fc.property(prefixes, (ascending) => {
        const registry = Object.fromEntries(ascending.map((p) => [p.toString(16).toUpperCase().padStart(9, "0"), `N${p}`]));
        const table = packOui(registry);
        expect([...unpackPrefixes(table.smallPrefixes)]).toEqual(ascending);
      }),
    );
  });
});

describe("ouiTableModule", () => {
  it("writes a module in ASCII whose table is the one given, every name included", async () => {
    const text = ouiTableModule(OUI_TABLE);
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    // The registry's names are not all ASCII, so the escapes are exercised.
    expect(OUI_TABLE.names.some((name) => /[^\x00-\x7f]/.test(name))).toBe(true);
    expect((await importText(text)).OUI_TABLE).toEqual(OUI_TABLE);
  });

  it("holds every entry of the registry whose name a lookup can reach", () => {
    const back = readBack(OUI_TABLE);
    const registry = ouiData as unknown as Record<string, string>;
    const byLength = { 6: back.blocks, 7: back.medium, 9: back.small } as const;
    for (const [key, entry] of Object.entries(registry)) {
      const list = byLength[key.length as 6 | 7 | 9];
      expect(list.get(Number.parseInt(key, 16)), key).toBe(entry.split("\n")[0]!.trim());
    }
    expect(back.blocks.size + back.medium.size + back.small.size).toBe(Object.keys(registry).length);
  });
});
