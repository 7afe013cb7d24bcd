import { open } from "node:fs/promises";
import type { ZlibOptions } from "node:zlib";
/** The two bytes every gzip stream starts with (RFC 1952: ID1 ID2). */
const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * Whether `head` (the first bytes of a file or stream) starts like a gzip stream.
 *
 * @example
 * isGzip(Buffer.from([0x1f, 0x8b, 8])); // true
 * isGzip(Buffer.from('{"row_key"'));    // false
 */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

/**
 * The bytes of `source`, decompressed when they are a gzip stream (an exported `day.ndjson.gz`,
 * or `curl … | footfall analyze --input -`), as they are otherwise. It looks at the first two
 * bytes only: an NDJSON line starts with `{` or white space, never with 0x1f. A corrupt or cut
 * gzip stream rejects with zlib's error (e.g. "unexpected end of file").
 *
 * @example
 * import { Readable } from "node:stream";
 * import { gzipSync } from "node:zlib";
 * const out: Buffer[] = [];
 * for await (const chunk of gunzipIfCompressed(Readable.from([gzipSync('{"rssi":-60}\n')]))) out.push(chunk);
 * Buffer.concat(out).toString(); // '{"rssi":-60}\n'
 */
export async function* gunzipIfCompressed(source: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  // Enough bytes to tell (a pipe may deliver a single byte first).
  let head = Buffer.alloc(0);
  let done = false;
  while (head.length < GZIP_MAGIC.length) {
    const r = await it.next();
    if (r.done === true) {
      done = true;
      break;
    }
    head = Buffer.concat([head, r.value]);
  }
  if (!isGzip(head)) {
    if (head.length > 0) yield head;
    if (done) return;
    for (let r = await it.next(); r.done !== true; r = await it.next()) yield Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength);
    return;
  }
  // Loaded only for a gzip input: ~3 ms of every command's start otherwise.
  const { createGunzip } = await import("node:zlib");
  // Decompressed in 1 MiB pieces, not zlib's 16 KiB: each piece is a turn of the reading loop and a
  // push into the line reader, and the big shop-day's 15 000 of them cost about a sixth of its run
  // (docs/performance.md, "gzip input").
  // And up to 16 of them decompressed ahead of the reader, so zlib (on libuv's threads) keeps
  // inflating while the reading thread decodes or applies, rather than one piece per turn of its
  // loop.
  // (Node passes a zlib stream's options on to its Transform; @types/node's ZlibOptions omits them.)
  const gunzip = createGunzip({ chunkSize: 1 << 20, readableHighWaterMark: 16 << 20 } as ZlibOptions);
  // Resolves when the gunzip can take more, or is gone (an error, or the reader stopped early).
  const writable = (): Promise<void> =>
    new Promise((resolve) => {
      const go = (): void => {
        gunzip.off("drain", go);
        gunzip.off("close", go);
        resolve();
      };
      gunzip.once("drain", go);
      gunzip.once("close", go);
    });
  // Fed from the source as the decompressed side is read; a failing source fails the gunzip, and
  // a gunzip that is gone closes the source.
  const feed = async (): Promise<void> => {
    try {
      if (!gunzip.write(head)) await writable();
      for (let r = done ? undefined : await it.next(); r !== undefined && r.done !== true && !gunzip.destroyed; r = await it.next()) {
        if (!gunzip.write(r.value)) await writable();
      }
      if (gunzip.destroyed) await it.return?.();
      else gunzip.end();
    } catch (error) {
      gunzip.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  };
  void feed();
  for await (const chunk of gunzip) yield chunk as Buffer;
}

/**
 * Whether the file at `path` starts with gzip's magic bytes: read before choosing threads, since
 * a compressed file is read on one.
 *
 * @example
 * import { writeFile } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { gzipSync } from "node:zlib";
 * const path = join(tmpdir(), "footfall-example.ndjson.gz");
 * await writeFile(path, gzipSync("{}\n"));
 * await startsLikeGzip(path); // true
 */
export async function startsLikeGzip(path: string): Promise<boolean> {
  const file = await open(path, "r");
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await file.read(head, 0, 2, 0);
    return isGzip(head.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}
