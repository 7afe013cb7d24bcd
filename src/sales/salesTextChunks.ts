import { createReadStream } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Anything a sales reader accepts:
 * - a file path (`string`) or a `file:` URL;
 * - `{ text, name? }`: the file's content held in memory;
 * - an iterable or async iterable of text or byte chunks (a stream, `fetch` body, an array
 *   of lines — see `ReadSalesOptions.iterable`).
 *
 * @example
 * const a: SalesSource = "./sales.csv";
 * const b: SalesSource = { text: "external_key,date,amount,quantity\nGN-001,2026-11-20,5000,1\n", name: "inline.csv" };
 */
export type SalesSource =
  | string
  | URL
  | { readonly text: string; readonly name?: string }
  | AsyncIterable<string | Uint8Array>
  | Iterable<string | Uint8Array>;

/**
 * A label for reports: the path, the URL's path, the given name, or `"input"`.
 *
 * @example
 * salesSourceName("data/sales.csv"); // "data/sales.csv"
 */
export function salesSourceName(source: SalesSource): string {
  if (typeof source === "string") return source;
  if (source instanceof URL) return source.protocol === "file:" ? fileURLToPath(source) : source.href;
  if (isTextSource(source)) return source.name ?? "input";
  return "input";
}

/**
 * The path of a file source (`string` or `file:` URL), else `undefined`.
 *
 * @example
 * salesSourcePath({ text: "" }); // undefined
 */
export function salesSourcePath(source: SalesSource): string | undefined {
  if (typeof source === "string") return source;
  if (source instanceof URL && source.protocol === "file:") return fileURLToPath(source);
  return undefined;
}

/** Bytes looked at, from the first that is not ASCII, to tell a file's encoding. */
const SNIFF_BYTES = 65_536;

/**
 * The encoding of a file from its bytes starting at the first that is not ASCII: UTF-16 by its
 * byte order mark (Excel's "Unicode Text"), UTF-8 when they are valid UTF-8 (a character cut at
 * their end aside; a UTF-8 BOM is), else EUC-KR — the WHATWG label of Windows code page 949, in
 * which Korean Excel saves "CSV" — when they are valid in that (the service is Korean: KRW).
 */
function encodingOf(head: Uint8Array): string {
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  // UTF-8 if they are; else CP949 if they are that; else UTF-8 (the standard), a bad byte or
  // two as replacement characters rather than every Korean letter misread.
  return decodesAs("utf-8", head) || !decodesAs("euc-kr", head) ? "utf-8" : "euc-kr";
}

/** Whether `bytes` are valid in `encoding` (a character cut at their end aside). */
function decodesAs(encoding: string, bytes: Uint8Array): boolean {
  try {
    new TextDecoder(encoding, { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** A decoder for the encoding `held` (bytes from the first that is not ASCII) tell, and their text. */
function startDecoding(held: readonly Uint8Array[]): { decoder: TextDecoder; text: string } {
  const head = Buffer.concat(held);
  const decoder = new TextDecoder(encodingOf(head));
  return { decoder, text: decoder.decode(head, { stream: true }) };
}

/**
 * Decoded text of a source, as chunks. Bytes are UTF-8 (with or without BOM), UTF-16 with a
 * BOM, or, when they are not valid UTF-8, CP949 (Korean Excel's CSV). ASCII reads alike in all
 * of them, so text goes out as it comes until the first byte that is not ASCII; from there up to
 * 64 KiB tell the encoding. Byte chunks are decoded in streaming mode so a character split
 * across chunks survives. With `lines`, every string element that lacks a line end gets one
 * (for `readline`-style inputs).
 *
 * @example
 * for await (const text of salesTextChunks({ text: "a,b\n" }, "chunks")) console.log(text);
 */
export async function* salesTextChunks(source: SalesSource, iterable: "chunks" | "lines"): AsyncGenerator<string> {
  if (isTextSource(source)) {
    yield source.text;
    return;
  }
  let chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
  if (typeof source === "string" || source instanceof URL) {
    if (source instanceof URL && source.protocol !== "file:") throw new TypeError(`only file: URLs can be read, got ${source.protocol}`);
    chunks = createReadStream(source) as AsyncIterable<Uint8Array>;
  } else {
    chunks = source;
  }
  let decoder: TextDecoder | undefined;
  // Bytes from the first that is not ASCII, held until they tell the encoding.
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  for await (const chunk of chunks) {
    if (typeof chunk === "string") {
      yield iterable === "lines" && !chunk.endsWith("\n") ? `${chunk}\n` : chunk;
      continue;
    }
    if (decoder !== undefined) {
      const text = decoder.decode(chunk, { stream: true });
      if (text !== "") yield text;
      continue;
    }
    let rest: Uint8Array = chunk;
    if (heldBytes === 0) {
      // Still ASCII so far: what is ASCII goes out at once.
      const first = chunk.findIndex((b) => b >= 0x80);
      const ascii = first === -1 ? chunk.byteLength : first;
      if (ascii > 0) yield Buffer.from(chunk.buffer, chunk.byteOffset, ascii).toString("latin1");
      if (first === -1) continue;
      rest = chunk.subarray(first);
    }
    held.push(rest);
    heldBytes += rest.byteLength;
    if (heldBytes >= SNIFF_BYTES) {
      const started = startDecoding(held);
      held = [];
      decoder = started.decoder;
      if (started.text !== "") yield started.text;
    }
  }
  if (decoder === undefined) {
    if (heldBytes === 0) return;
    const started = startDecoding(held);
    decoder = started.decoder;
    if (started.text !== "") yield started.text;
  }
  const tail = decoder.decode();
  if (tail !== "") yield tail;
}

function isTextSource(source: SalesSource): source is { readonly text: string; readonly name?: string } {
  return typeof source === "object" && source !== null && !(source instanceof URL) && typeof (source as { text?: unknown }).text === "string";
}
