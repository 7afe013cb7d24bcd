import { emptySalesJournal, type SalesJournalData, type SalesJournalEntry, type SalesJournalStore } from "./SalesJournal.ts";

/**
 * The journal as one upload run uses it: loads once, answers "was this shop-day stored with
 * these figures?", and saves after each success. Saves never overlap: a success during a
 * save marks the journal dirty and the next save (which includes it) follows right after,
 * so each success is followed by an atomic write that contains it.
 *
 * @example
 * const writer = new SalesJournalWriter(fileJournal("j.json"), "http://127.0.0.1:8080");
 * await writer.load();
 * writer.get("101/2026-11-20")?.hash;
 */
export class SalesJournalWriter {
  readonly #store: SalesJournalStore | undefined;
  readonly #scope: string;
  #data: SalesJournalData = emptySalesJournal();
  #entries: Record<string, SalesJournalEntry> = {};
  #saving: Promise<void> | undefined;
  #dirty = false;
  #error: unknown;

  /** `store` undefined: a run without a journal (everything is sent, nothing written). */
  constructor(store: SalesJournalStore | undefined, scope: string) {
    this.#store = store;
    this.#scope = scope;
  }

  /** Where the journal lives, or `undefined` without one. */
  get location(): string | undefined {
    return this.#store?.location;
  }

  /** Reads the journal; throws `SalesJournalError` when it exists but is not one. */
  async load(): Promise<void> {
    if (this.#store === undefined) return;
    this.#data = (await this.#store.load()) ?? emptySalesJournal();
    this.#entries = { ...this.#data.services[this.#scope] };
  }

  /** The entry of `<shopId>/<date>` in this run's scope. */
  get(key: string): SalesJournalEntry | undefined {
    return Object.hasOwn(this.#entries, key) ? this.#entries[key] : undefined;
  }

  /** Records a success and starts (or queues) an atomic save. */
  record(key: string, entry: SalesJournalEntry): void {
    if (this.#store === undefined) return;
    this.#entries[key] = entry;
    this.#dirty = true;
    this.#saving ??= this.#saveLoop();
  }

  /** Waits for pending saves; resolves the last save error's message, if any. */
  async flush(): Promise<string | undefined> {
    while (this.#saving !== undefined) await this.#saving;
    if (this.#error === undefined) return undefined;
    return this.#error instanceof Error ? this.#error.message : String(this.#error);
  }

  async #saveLoop(): Promise<void> {
    try {
      while (this.#dirty) {
        this.#dirty = false;
        const data: SalesJournalData = { ...this.#data, services: { ...this.#data.services, [this.#scope]: sortedEntries(this.#entries) } };
        try {
          await this.#store!.save(data);
          this.#error = undefined;
        } catch (error) {
          this.#error = error;
        }
      }
    } finally {
      this.#saving = undefined;
    }
  }
}

// Sorted keys keep the file stable and diffable between runs.
function sortedEntries(entries: Record<string, SalesJournalEntry>): Record<string, SalesJournalEntry> {
  const out: Record<string, SalesJournalEntry> = {};
  for (const key of Object.keys(entries).sort()) out[key] = entries[key]!;
  return out;
}
