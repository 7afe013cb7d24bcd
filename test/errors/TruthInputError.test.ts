import { describe, expect, it } from "vitest";
import { FootfallError, isFootfallError } from "../../src/errors/FootfallError.ts";
import { SalesInputError, isSalesInputError } from "../../src/errors/SalesInputError.ts";
import { TruthInputError, isTruthInputError } from "../../src/errors/TruthInputError.ts";

describe("TruthInputError", () => {
  it("is a FootfallError with source, line, reason and a file:line: reason message", () => {
    const e = new TruthInputError("a.truth.csv", 7, "people -1 is negative", { column: "people" });
    expect(e).toBeInstanceOf(FootfallError);
    expect(isFootfallError(e)).toBe(true);
    expect(e.name).toBe("TruthInputError");
    expect(e).toMatchObject({ source: "a.truth.csv", line: 7, reason: "people -1 is negative", column: "people" });
    expect(e.message).toBe("a.truth.csv:7: people -1 is negative");
  });

  it("line 0 is the file as a whole; an empty source reads as input; the cause is kept", () => {
    const cause = new Error("ENOENT");
    const e = new TruthInputError("gone.csv", 0, "cannot read: ENOENT", { cause });
    expect(e.message).toBe("gone.csv: cannot read: ENOENT");
    expect(e.cause).toBe(cause);
    expect(new TruthInputError("", 2, "x").message).toBe("input:2: x");
    expect(new TruthInputError("a", 1, "x").column).toBeUndefined();
  });

  it("is recognised by its own guard only, also as a copy from another instance of the package", () => {
    const e = new TruthInputError("a.csv", 1, "empty file");
    expect(isTruthInputError(e)).toBe(true);
    expect(isSalesInputError(e)).toBe(false);
    expect(isTruthInputError(new SalesInputError("a.csv", 1, "empty file"))).toBe(false);
    expect(isTruthInputError(Object.assign(new Error(e.message), { name: "TruthInputError" }))).toBe(true);
    expect(isTruthInputError({ name: "TruthInputError" })).toBe(false);
    expect(isTruthInputError(undefined)).toBe(false);
  });
});
