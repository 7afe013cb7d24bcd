const QUOTE = 34;
const COLON = 58;
const BACKSLASH = 92;
const KEY = '"row_key"';

/**
 * The value of the last `"row_key"` member in a signals page's JSON text, read without parsing
 * the page: a guess at its last record's `row_key`, for the source to send its next request
 * while the page itself is still being parsed. `undefined` when the text does not end its last
 * `"row_key"` with a plain string (no member, another type, an escape, cut short).
 *
 * Only a guess: the last `"row_key"` text may belong to no record (a string value spelled so, a
 * member of a nested object), and the last record may be one the cursor rule skips. The source
 * checks it against the parsed page and drops a request that turns out to be another than the
 * one needed, so a wrong guess costs one request, never a record.
 *
 * @param text  a response body, as received (any JSON whitespace)
 * @returns     the string between the quotes, unescaped text only
 *
 * @example
 * const page = '{"signals":[{"row_key":"7:0000019a8f3c2e10","rssi":-60},{"row_key" : "7:0000019a8f3c2e11"}]}';
 * lastRowKey(page); // "7:0000019a8f3c2e11"
 * lastRowKey('{"signals":[]}');                  // undefined
 * lastRowKey('{"signals":[{"row_key":null}]}');  // undefined
 */
export function lastRowKey(text: string): string | undefined {
  const at = text.lastIndexOf(KEY);
  if (at < 0) return undefined;
  let i = skipSpace(text, at + KEY.length);
  if (text.charCodeAt(i) !== COLON) return undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) !== QUOTE) return undefined;
  const end = text.indexOf('"', i + 1);
  if (end < 0) return undefined;
  // An escape could hide the closing quote, or spell the value otherwise than it reads.
  for (let k = i + 1; k < end; k++) if (text.charCodeAt(k) === BACKSLASH) return undefined;
  return text.slice(i + 1, end);
}

/** Index of the first character at or after `i` that is not JSON whitespace. */
function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
    i++;
  }
}
