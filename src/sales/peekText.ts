/**
 * The start of a text stream, read until `enough` says it tells what the caller needs, and the
 * whole stream again from its first chunk: a reader that must look before it picks how to read
 * (the format of a sales file, the delimiter of a CSV) reads the same chunks, nothing lost. The
 * replay delegates to the stream, so a reader that stops early closes it too.
 *
 * @example
 * async function* chunks() { yield "external_key;da"; yield "te\nA;2026-11-20\n"; }
 * const { seen, chunks: all } = await peekText(chunks(), (text) => text.includes("\n"));
 * seen;                              // "external_key;date\nA;2026-11-20\n"
 * for await (const c of all) console.log(c); // the two chunks, as they came
 */
export async function peekText(
  chunks: AsyncIterable<string>,
  enough: (seen: string) => boolean,
): Promise<{ seen: string; chunks: AsyncIterable<string> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: string[] = [];
  let seen = "";
  while (!enough(seen)) {
    const next = await iterator.next();
    if (next.done === true) break;
    head.push(next.value);
    seen += next.value;
  }
  async function* replay(): AsyncGenerator<string> {
    yield* head;
    yield* { [Symbol.asyncIterator]: () => iterator };
  }
  return { seen, chunks: replay() };
}
