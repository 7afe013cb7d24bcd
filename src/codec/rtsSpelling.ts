import { RTS_UPPERCASE, rtsValueAt } from "./rts.ts";

/** Digits of an RTS in footfall's spelling. */
const RTS_LENGTH = 16;
/** Hex digits, either case. */
const HEX = /^[0-9a-fA-F]+$/;

/**
 * How a service writes an RTS: in lowercase or uppercase hex (`%016x` or `%016X`), and padded
 * with zeros to 16 digits (the spec's sample) or not (`n.toString(16)`). footfall's own spelling
 * — in cursors, checkpoints, `Signal.rts`, comparisons — is always lowercase and padded; a
 * service's spelling only matters in what is sent to it.
 *
 * @example
 * const spelling: RtsSpelling = { upper: true, padded: true }; // "0000019A9EC06410"
 */
export interface RtsSpelling {
  upper: boolean;
  padded: boolean;
}

/**
 * footfall's own spelling of an RTS — lowercase, padded to 16 digits, the spec's sample's — as
 * a fresh object, which a reader may then change to the service's as it learns it.
 *
 * @example
 * footfallSpelling(); // { upper: false, padded: true }
 */
export function footfallSpelling(): RtsSpelling {
  return { upper: false, padded: true };
}

/**
 * `value` in footfall's spelling of an RTS (16 lowercase hex digits) when it is an RTS in any
 * spelling a service may use — 16 hex digits of either case, or fewer without leading zeros
 * (a value written without padding, so "0" for zero) — else `undefined`. A shorter text with
 * a leading zero is not an RTS in any spelling: it is a padded one with a digit lost.
 *
 * @example
 * canonicalRts("0000019A8F3C2E10"); // "0000019a8f3c2e10"
 * canonicalRts("19a8f3c2e10");      // "0000019a8f3c2e10"
 * canonicalRts("0000019a8f3c2e1");  // undefined (15 digits, padded: one is missing)
 */
export function canonicalRts(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  if (value.length === RTS_LENGTH) {
    const v = rtsValueAt(value, 0);
    if (v >= 0) return value;
    return v === RTS_UPPERCASE ? value.toLowerCase() : undefined;
  }
  if (value.length === 0 || value.length > RTS_LENGTH || (value.length > 1 && value[0] === "0") || !HEX.test(value)) return undefined;
  return value.toLowerCase().padStart(RTS_LENGTH, "0");
}

/**
 * The spelling of `text` when {@link canonicalRts} reads it as an RTS, else `undefined`:
 * `upper` when it has an uppercase letter, `padded` when it has 16 digits. Without a letter
 * its case says nothing, and a 16-digit value needs no padding: only a departure from
 * footfall's spelling is evidence.
 *
 * @example
 * rtsSpellingOf("19A8F3C2E10");      // { upper: true, padded: false }
 * rtsSpellingOf("0000000000000100"); // { upper: false, padded: true }
 */
export function rtsSpellingOf(text: string): RtsSpelling | undefined {
  if (canonicalRts(text) === undefined) return undefined;
  return { upper: /[A-F]/.test(text), padded: text.length === RTS_LENGTH };
}

/**
 * The RTS `rts` (footfall's spelling: 16 lowercase hex digits) as a service with `spelling`
 * writes it: what goes into its `since`, and what the simulator serves.
 *
 * @example
 * spellRts("0000019a8f3c2e10", { upper: true, padded: false }); // "19A8F3C2E10"
 * spellRts("0000000000000000", { upper: false, padded: false }); // "0"
 */
export function spellRts(rts: string, spelling: Readonly<RtsSpelling>): string {
  let text = rts;
  if (!spelling.padded) {
    let zeros = 0;
    while (zeros < text.length - 1 && text.charCodeAt(zeros) === 48) zeros++;
    text = text.slice(zeros);
  }
  return spelling.upper ? text.toUpperCase() : text;
}
