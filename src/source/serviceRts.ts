import { inferRtsCodec, type RtsCodec } from "../codec/rts.ts";
import { footfallSpelling, rtsSpellingOf, type RtsSpelling } from "../codec/rtsSpelling.ts";
import { toEpochMillis } from "../codec/inferEpochUnit.ts";
import { tsNumber } from "../codec/InvalidRecord.ts";
import { MIN_TIME_MS } from "../codec/SignalDecoderCore.ts";
import { ContractError } from "../errors/ContractError.ts";

// What the service's RTS is, as its records show it: how it is spelled (case, padding), and
// whether the RTS codec in use reads it as the records' time. The interface says neither; a
// read learns both from the first pages, for every range of the read.

const DAY_MS = 86_400_000;
/** How long after collection a record may reach the service (a sensor offline, then uploading its backlog), ms. */
const BACKLOG_MS = 5 * 365 * DAY_MS;
/** Each preset unit's name and codec, for the message that says which to use. */
const UNIT_NAMES = { s: ["seconds", "secondsRts"], ms: ["milliseconds", "millisRts"], us: ["microseconds", "microsRts"], ns: ["nanoseconds", "nanosRts"] } as const;

/**
 * How a service spells its RTS, as far as its row_keys have shown it. Every `since` is sent in
 * it: a service that compares `since` as a string (a key-value store scanning from
 * `<shop>:<since>`) puts "0000019a…" after every "0000019B…" and every "19a…" after
 * "0000019a…", and would answer a `since` in footfall's spelling with nothing, with a range
 * that starts too early — or with one that skips records and shows no sign of it, when the keys
 * it returns have no letter to show their case. So an answer is not trusted until the case is
 * known (`cased`): one to a `since` with a letter whose keys cannot show it makes the source
 * ask for the oldest records (a `since` the same in every spelling), whose keys do.
 *
 * @example
 * const spelling: LearntSpelling = learntSpelling(); // { upper: false, padded: true, cased: false }
 */
export interface LearntSpelling extends RtsSpelling {
  /** Whether a key with a hex letter has shown the service's case. */
  cased: boolean;
}

/**
 * footfall's spelling, with the case not yet shown: where a read starts.
 *
 * @example
 * learntSpelling().cased; // false
 */
export function learntSpelling(): LearntSpelling {
  return { ...footfallSpelling(), cased: false };
}

/** A hex letter in either case: an RTS with one is spelled in a case. */
const HEX_LETTER = /[a-fA-F]/;

/**
 * Whether an RTS, as spelled, can show the service's case (it holds a hex letter).
 *
 * @example
 * showsCase("0000019a9ed3a000"); // true
 * showsCase("0000000000000000"); // false
 */
export function showsCase(rts: string): boolean {
  return HEX_LETTER.test(rts);
}

/**
 * Learns how the service spells RTS from the row_keys of `page`: padding from the first
 * usable-looking one, the case from the first with a letter. Each departure from footfall's
 * spelling is kept once seen (an uppercase letter; an RTS shorter than 16 digits — a 16-digit
 * one proves no padding), so the spelling changes at most twice in a read and a page is
 * asked again at most twice for it. Once the case is known, only a page's first key is read.
 *
 * @example
 * const spelling = learntSpelling();
 * learnSpelling(spelling, [{ row_key: "101:0000019A9ED3A000" }]);
 * spelling.upper && spelling.cased; // true
 */
export function learnSpelling(spelling: LearntSpelling, page: readonly unknown[]): void {
  let first = true;
  for (const record of page) {
    const rowKey = typeof record === "object" && record !== null ? (record as { row_key?: unknown }).row_key : undefined;
    if (typeof rowKey !== "string") continue;
    const text = rowKey.slice(rowKey.lastIndexOf(":") + 1);
    const seen = rtsSpellingOf(text);
    if (seen === undefined) continue;
    if (first && !seen.padded) spelling.padded = false;
    first = false;
    if (seen.upper) spelling.upper = true;
    if (!spelling.cased && HEX_LETTER.test(text)) spelling.cased = true;
    if (spelling.cased) return;
  }
}

/**
 * The interface does not say how a datetime becomes an RTS. A service whose RTS counts µs or
 * ns, read with the ms codec, answers a `since` meant for today with its oldest records (the
 * number read as µs is 1970), whose RTS then lie past any `until`: the backfill would end at
 * once with nothing, silently. So the first record with a usable `ts` is compared with its
 * RTS: when the codec puts them months apart and another unit puts them within a day, the
 * unit is wrong, and a ContractError says which one to use. (A sensor clock off by hours or
 * years does not look like a unit: only factors of 1000 do.)
 *
 * An RTS that is no count of a unit at all (the interface calls it "a special string form of
 * a datetime": a count with a sequence number in its low bits, another epoch …) fails the
 * same way, so when no unit fits either, the page's records decide: if the codec puts at
 * least three of them, from two sensors or more, months before their `ts` or years after it —
 * and none nearer — the rule is another, and a ContractError says so. A backlog (RTS months
 * after `ts`: sensors that were offline uploading) does not look like that, nor does one
 * sensor's clock a year off (the other sensors' records are near), nor a shop with one
 * sensor (not decided).
 *
 * @param rtsOf the RTS of a record with a usable row_key (footfall's spelling), else undefined
 * @returns whether a record with a usable `ts` was compared (the rule is then checked for the read)
 * @throws ContractError when the codec does not read the service's RTS as its records' time
 * @example
 * const page = [{ row_key: "101:0000019a9ed3a000", ts: 1763600000000, square_mac: "b8:27:eb:00:00:01" }];
 * checkRtsRule(page, millisRts, 101, (r) => (r as { row_key: string }).row_key.slice(4)); // true
 */
export function checkRtsRule(page: readonly unknown[], codec: RtsCodec, shopId: number, rtsOf: (record: unknown) => string | undefined): boolean {
let checked = false;
  let far = 0;
  let firstFar: { rts: string; ts: number; read: number } | undefined;
  const sensors = new Set<unknown>();
  for (const record of page) {
    const rts = rtsOf(record);
    // ts as the decoder reads it (a number, or a quoted decimal); −1 for anything else.
    const ts = typeof record === "object" && record !== null ? tsNumber((record as { ts?: unknown }).ts) : -1;
    if (rts === undefined || !(ts > 0) || !Number.isFinite(ts)) continue;
    const tsMs = toEpochMillis(ts);
    // A clock never set (before 2000) says nothing of the rule; the decoder rejects it.
    if (!(tsMs >= MIN_TIME_MS)) continue;
    checked = true;
    const read = codec.decode(rts);
    const off = read - tsMs;
    if (Math.abs(off) < 30 * DAY_MS) return true;
    if (firstFar === undefined) {
      firstFar = { rts, ts, read };
      const inferred = inferRtsCodec(rts, tsMs);
      if (inferred !== undefined && inferred !== codec && Math.abs(inferred.decode(rts) - tsMs) <= DAY_MS) {
        const unit = inferred.unit!;
        const [name, preset] = UNIT_NAMES[unit];
        throw new ContractError(
          "signals[].row_key",
          `shop ${shopId}: the service's RTS counts ${name} since the epoch (row_key RTS ${rts} for ts ${ts}), not what the RTS codec in use assumes; ` +
            `read it with rtsCodec: ${preset} (footfall --rts-unit ${unit})`,
        );
      }
    }
    // Received months after it was collected is a backlog (sensors offline, then uploading),
    // not a rule: only a time no backlog explains counts.
    if (off > 0 && off < BACKLOG_MS) return true;
    far++;
    sensors.add((record as { square_mac?: unknown }).square_mac);
    if (far >= 3 && sensors.size >= 2) break;
  }
  if (firstFar === undefined || far < 3 || sensors.size < 2) return checked;
  const { rts, ts, read } = firstFar;
  const date = new Date(read);
  const when = Number.isNaN(date.getTime()) ? String(read) : date.toISOString();
  throw new ContractError(
    "signals[].row_key",
    `shop ${shopId}: the service's RTS does not read as the time of its records, with the RTS codec in use or as a count of s, ms, µs or ns since the epoch ` +
      `(row_key RTS ${rts} for ts ${ts} reads as ${when}; ${far} records from ${sensors.size} sensors alike): its datetime → RTS rule is another; read it with an rtsCodec that implements it`,
  );
}
