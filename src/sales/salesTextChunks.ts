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

/**
 * Decoded UTF-8 text of a source, as chunks. Byte chunks are decoded in streaming mode so a
 * character split across chunks survives. With `lines`, every string element that lacks a
 * line end gets one (for `readline`-style inputs).
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
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of chunks) {
    if (typeof chunk === "string") {
      yield iterable === "lines" && !chunk.endsWith("\n") ? `${chunk}\n` : chunk;
    } else {
      const text = decoder.decode(chunk, { stream: true });
      if (text !== "") yield text;
    }
  }
  const tail = decoder.decode();
  if (tail !== "") yield tail;
}

function isTextSource(source: SalesSource): source is { readonly text: string; readonly name?: string } {
  return typeof source === "object" && source !== null && !(source instanceof URL) && typeof (source as { text?: unknown }).text === "string";
}
