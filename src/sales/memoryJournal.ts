import type { SalesJournalData, SalesJournalStore } from "./SalesJournal.ts";

/**
 * A journal held in memory (tests, notebooks, or a caller that persists it elsewhere).
 * `data` is the last saved content.
 *
 * @example
 * const journal = memoryJournal();
 * const days = aggregateDaily(await readSales("sales.csv", { brand: "Cafe Mori" }), { brand: "Cafe Mori" });
 * await uploadDailySales(client, days, { journal });
 * Object.keys(journal.data?.services.default ?? {}); // ["101/2026-11-16"]
 */
export function memoryJournal(initial?: SalesJournalData): SalesJournalStore & { readonly data: SalesJournalData | undefined } {
  let data = initial === undefined ? undefined : structuredClone(initial);
  return {
    location: "memory",
    get data() {
      return data;
    },
    async load() {
      return data === undefined ? undefined : structuredClone(data);
    },
    async save(next: SalesJournalData) {
      data = structuredClone(next);
    },
  };
}
