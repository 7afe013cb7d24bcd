/**
 * The big shop-day as the service's raw records: each line of {@link bigShopDayFile}'s file cut to
 * the interface's six fields (`row_key`, `device_id`, `rssi`, `square_mac`, `ts`, `local`), the
 * shape a client that stores the service's pages as they come holds — ~246 MB against the
 * backfill file's ~495 MiB, the same 1.7 M records in the same order.
 */
import { createReadStream, createWriteStream, existsSync, statSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { once } from "node:events";
import { bigShopDayFile, type BigShopDay, type BigShopDayOptions } from "./bigShopDay.ts";

/**
 * Writes the raw-record file beside the backfill file unless it is there (it is derived from
 * that file, so it is complete when its size is what the last write left), and says what it holds.
 *
 * @example
 * const raw = await bigShopDayRawFile();
 * raw.bytes < (await bigShopDayFile()).bytes; // true
 */
export async function bigShopDayRawFile(options: BigShopDayOptions = {}): Promise<BigShopDay> {
  const day = await bigShopDayFile(options);
  const path = day.path.replace(/\.ndjson$/, ".raw.ndjson");
  if (!day.generated && existsSync(path) && existsSync(`${path}.done`)) return { ...day, path, bytes: statSync(path).size, generated: false };
  const partial = `${path}.${process.pid}.partial`;
  try {
    const out = createWriteStream(partial);
    const lines = createInterface({ input: createReadStream(day.path), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      if (line === "") continue;
      // The generator writes the six service fields first, then `shopId` and the decoded ones.
      const cut = line.indexOf(',"shopId":');
      if (cut < 0) throw new Error(`bigShopDayRawFile: a line without the decoded fields: ${line.slice(0, 120)}`);
      if (!out.write(`${line.slice(0, cut)}}\n`)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    await rename(partial, path);
    await writeFile(`${path}.done`, "");
    return { ...day, path, bytes: statSync(path).size, generated: true };
  } finally {
    await rm(partial, { force: true });
  }
}
