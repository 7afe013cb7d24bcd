import { SalesJournalError } from "../errors/SalesJournalError.ts";

/**
 * One shop-day the journal knows was stored by the service: the record sent and its hash.
 *
 * @example
 * const e: SalesJournalEntry = {
 *   brand: "Cafe Mori", externalKey: "GN-001", shopId: 101, date: "2026-11-20",
 *   amount: 25000, quantity: 3, amount_currency: "KRW", hash: "sha256:…", uploadedAt: "2026-11-21T01:00:00.000Z",
 * };
 */
export interface SalesJournalEntry {
  readonly brand: string;
  readonly externalKey: string;
  /** SHOP ID the record was posted to. */
  readonly shopId: number;
  readonly date: string;
  /** The posted `amount` (major units). */
  readonly amount: number;
  readonly quantity: number;
  readonly amount_currency: string;
  /** `sha256:<hex>` of the posted record (see `hashSalesRecord`); equal hash = unchanged. */
  readonly hash: string;
  /** When the service acknowledged the record (ISO 8601, UTC). */
  readonly uploadedAt: string;
}

/**
 * The journal file's content: per service (scope, e.g. the base URL) and per `<shopId>/<date>`,
 * the last record the service acknowledged.
 *
 * @example
 * const data: SalesJournalData = { format: "footfall-sales-journal", version: 1, services: {} };
 */
export interface SalesJournalData {
  readonly format: "footfall-sales-journal";
  readonly version: 1;
  readonly services: Readonly<Record<string, Readonly<Record<string, SalesJournalEntry>>>>;
}

/**
 * Where a journal lives. `load` resolves `undefined` when there is none yet; `save` replaces
 * it as a whole and must be atomic (a crash leaves the old or the new content, never half).
 *
 * @example
 * const store: SalesJournalStore = fileJournal("sales.csv.journal.json");
 */
export interface SalesJournalStore {
  /** Path or label, for messages. */
  readonly location: string;
  /** The journal as last saved, or `undefined` when there is none yet. */
  load(): Promise<SalesJournalData | undefined>;
  /** Replaces the journal whole, atomically. */
  save(data: SalesJournalData): Promise<void>;
}

/**
 * An empty journal.
 *
 * @example
 * emptySalesJournal().services; // {}
 */
export function emptySalesJournal(): SalesJournalData {
  return { format: "footfall-sales-journal", version: 1, services: {} };
}

/**
 * Parses and checks a journal's JSON text; throws `SalesJournalError` when it is not one.
 *
 * @example
 * parseSalesJournal('{"format":"footfall-sales-journal","version":1,"services":{}}', "j.json").version; // 1
 */
export function parseSalesJournal(text: string, location: string): SalesJournalData {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SalesJournalError(location, "not valid JSON", { cause: error });
  }
  if (typeof value !== "object" || value === null || (value as { format?: unknown }).format !== "footfall-sales-journal") {
    throw new SalesJournalError(location, 'not a footfall sales journal (no "format": "footfall-sales-journal")');
  }
  const data = value as { version?: unknown; services?: unknown };
  if (data.version !== 1) throw new SalesJournalError(location, `unsupported version ${JSON.stringify(data.version)} (this footfall writes version 1)`);
  if (typeof data.services !== "object" || data.services === null || Array.isArray(data.services)) {
    throw new SalesJournalError(location, '"services" must be an object');
  }
  for (const [scope, entries] of Object.entries(data.services)) {
    if (typeof entries !== "object" || entries === null || Array.isArray(entries)) throw new SalesJournalError(location, `services[${JSON.stringify(scope)}] must be an object`);
    for (const [key, entry] of Object.entries(entries as Record<string, unknown>)) {
      if (typeof entry !== "object" || entry === null || typeof (entry as { hash?: unknown }).hash !== "string") {
        throw new SalesJournalError(location, `entry ${JSON.stringify(key)} has no hash`);
      }
    }
  }
  return value as SalesJournalData;
}
