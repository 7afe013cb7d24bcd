import { open, readFile, rename, rm } from "node:fs/promises";
import { emptySalesJournal, parseSalesJournal, type SalesJournalData, type SalesJournalStore } from "./SalesJournal.ts";

/**
 * A journal kept in a JSON file. Each save writes a temporary file beside it, flushes it to
 * disk and renames it over the journal, so a crash at any moment leaves a complete journal
 * (the previous or the new one). A missing file is an empty journal.
 *
 * @example
 * const store = fileJournal("sales.csv.journal.json");
 * const data = await store.load(); // undefined on the first run
 */
export function fileJournal(path: string): SalesJournalStore {
  if (typeof path !== "string" || path === "") throw new TypeError("journal path must be a non-empty string");
  return {
    location: path,
    async load(): Promise<SalesJournalData | undefined> {
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch (error) {
        if ((error as { code?: unknown }).code === "ENOENT") return undefined;
        throw error;
      }
      return text.trim() === "" ? emptySalesJournal() : parseSalesJournal(text, path);
    },
    async save(data: SalesJournalData): Promise<void> {
      const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
      try {
        const handle = await open(temp, "w");
        try {
          await handle.writeFile(`${JSON.stringify(data, null, 2)}\n`, "utf8");
          await handle.sync(); // the rename must not land before the bytes do
        } finally {
          await handle.close();
        }
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
  };
}
